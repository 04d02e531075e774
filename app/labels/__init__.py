"""Labels: people's verdicts on judged items, bound to a metric version and the item's content
(issue 29). Other domains call `app.labels.service` (`label_result`, `of_version`, `of_item`,
`summaries`) and `app.labels.items.item_key`."""
