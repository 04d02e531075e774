"""Review queues (issue 29 item 3): judged results routed to people, who label them blind."""
