"""Dataset run scoring: N General-VQA samples with given predictions, BLEU/ROUGE per sample.

Builds a General-VQA JSONL dataset of N rows (seeded; ~10% Chinese), uploads it to `loupe serve`
(a subprocess; embedded mode: fresh SQLite file and in-process worker; RQ mode: PostgreSQL +
Redis + one `loupe worker`, started by bench/throughput.py's helpers), starts a run that scores
given predictions (no model or judge calls) and polls it (as Retry-After says, or every
--poll s) until completed; a 50-sample run first warms the service up. Prints upload and submit
latency, submit -> completed wall time (from the run's completed_at, so polling adds no error),
samples/s, service CPU per sample, the service processes' RSS (sampled every 10 ms from /proc,
cross-checked with VmHWM), the time of `GET /v1/runs/{id}` on the completed run (3 times) and of
`GET .../samples/export?format=csv`, and checks the report: bleu-1..4 and Rouge-*-* with
num == N for OVERALL, equal to the baseline's means. The baseline is the same per-sample
computation in this process: `app.metrics._text_scores.text_scores` over the N pairs.

    .venv/bin/python bench/run_scoring.py                  # embedded, N = 10,000
    .venv/bin/python bench/run_scoring.py --mode both      # embedded, then RQ
"""

import argparse
import csv
import io
import json
import random
import statistics
import subprocess
import sys
import threading
import time
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.media_ingest import rss_kib  # noqa: E402
from bench.procs import cpu_seconds  # noqa: E402
from bench.throughput import LOUPE, service  # noqa: E402

FILENAME = "vqa_bench.jsonl"
DEFAULT_MAX_BODY = 64 * 1024 * 1024  # LOUPE_MAX_BODY_BYTES's default
BLEU_KEYS = [f"bleu-{n}" for n in range(1, 5)]
ROUGE_KEYS = [f"Rouge-{n}-{s}" for n in ("1", "2", "L") for s in ("R", "P", "F")]

# English vocabulary: synonyms on the right are what paraphrased predictions swap in.
EN_SUBJECTS = {
    "man": "person",
    "woman": "lady",
    "child": "kid",
    "dog": "puppy",
    "cat": "kitten",
    "cyclist": "rider",
    "chef": "cook",
    "farmer": "worker",
    "student": "pupil",
    "girl": "young girl",
    "boy": "young boy",
    "driver": "man",
}
EN_ADJECTIVES = ["young", "old", "tall", "small", "smiling", "tired", "brown", "white", "busy"]
EN_VERBS = {
    "holding": "carrying",
    "eating": "having",
    "reading": "looking at",
    "watching": "looking at",
    "throwing": "tossing",
    "painting": "drawing",
    "pushing": "moving",
    "riding": "on",
    "cleaning": "wiping",
    "opening": "unlocking",
}
EN_OBJECTS = [
    "a red umbrella",
    "a sandwich",
    "a wooden box",
    "a newspaper",
    "the television",
    "a tennis ball",
    "a garden fence",
    "a shopping cart",
    "a bicycle",
    "the kitchen window",
    "a blue kite",
    "a cup of coffee",
    "a stack of books",
    "an old map",
]
EN_PLACES = [
    "in the park",
    "on the beach",
    "in a small kitchen",
    "next to the river",
    "on a busy street",
    "in the garden",
    "inside a train station",
    "at the market",
    "near a frozen lake",
    "in a classroom",
]
EN_TIMES = ["", "", " in the morning", " at night", " in the rain", " at sunset"]
EN_EXTRAS = [
    "There are several people in the background.",
    "The sky is cloudy and grey.",
    "A car is parked nearby.",
    "The light comes from the left side of the picture.",
    "Some trees can be seen behind them.",
]

ZH_SUBJECTS = ["男人", "女人", "孩子", "小狗", "小猫", "老人", "学生", "厨师", "司机", "女孩"]
ZH_ADJECTIVES = ["年轻的", "年老的", "高个子的", "穿红衣服的", "快乐的", "疲惫的"]
ZH_VERBS = ["拿着", "吃着", "提着", "看着", "推着", "骑着", "画着", "打开"]
ZH_OBJECTS = ["一把红伞", "一个三明治", "一个木箱", "一份报纸", "一个足球", "一辆自行车"]
ZH_PLACES = ["在公园里", "在海滩上", "在厨房里", "在河边", "在街上", "在花园里", "在火车站"]


def english(rng: random.Random) -> tuple[str, str, str]:
    """(question, reference, prediction) for an English sample."""
    subject = rng.choice(list(EN_SUBJECTS))
    adjective, verb = rng.choice(EN_ADJECTIVES), rng.choice(list(EN_VERBS))
    thing, place, when = rng.choice(EN_OBJECTS), rng.choice(EN_PLACES), rng.choice(EN_TIMES)
    question = rng.choice(
        [
            f"What is the {adjective} {subject} doing {place}?",
            f"Describe what the {subject} in the picture is doing.",
            f"What is the {subject} {verb}?",
            f"Where is the {adjective} {subject} and what is it doing?",
        ]
    )
    reference = rng.choice(
        [
            f"The {adjective} {subject} is {verb} {thing} {place}{when}.",
            f"A {adjective} {subject} is {verb} {thing} {place}{when}.",
            f"{place.capitalize()}, a {subject} is {verb} {thing}{when}.",
        ]
    )
    kind = rng.random()
    if kind < 0.20:  # exact
        prediction = reference
    elif kind < 0.55:  # paraphrase: synonyms, other article, no time phrase
        prediction = (
            f"{rng.choice(['The', 'A', 'It looks like a', 'I think the'])} {EN_SUBJECTS[subject]} "
            f"is {EN_VERBS[verb]} {thing} {place}."
        )
    elif kind < 0.75:  # partial
        prediction = rng.choice(
            [f"{verb.capitalize()} {thing}.", f"The {subject} is {place}.", thing.capitalize()]
        )
    elif kind < 0.90:  # wrong
        other = rng.choice([s for s in EN_SUBJECTS if s != subject])
        prediction = f"The {other} is {rng.choice(list(EN_VERBS))} {rng.choice(EN_OBJECTS)}."
    elif kind < 0.95:  # verbose
        prediction = f"{reference} {rng.choice(EN_EXTRAS)} {rng.choice(EN_EXTRAS)}"
    else:
        prediction = ""
    return question, reference, prediction


def chinese(rng: random.Random) -> tuple[str, str, str]:
    """(question, reference, prediction) for a Chinese sample."""
    subject, adjective = rng.choice(ZH_SUBJECTS), rng.choice(ZH_ADJECTIVES)
    verb, thing, place = rng.choice(ZH_VERBS), rng.choice(ZH_OBJECTS), rng.choice(ZH_PLACES)
    question = rng.choice([f"图中的{subject}在做什么？", f"请描述图片中{place[1:]}的情景。"])
    reference = f"{adjective}{subject}{place}{verb}{thing}。"
    kind = rng.random()
    if kind < 0.25:
        prediction = reference
    elif kind < 0.55:
        prediction = f"{subject}{verb}{thing}。"
    elif kind < 0.75:
        prediction = f"图中{place}有一个{subject}。"
    elif kind < 0.95:
        prediction = f"{rng.choice(ZH_SUBJECTS)}{rng.choice(ZH_VERBS)}{rng.choice(ZH_OBJECTS)}。"
    else:
        prediction = ""
    return question, reference, prediction


def samples(n: int, seed: int = 4) -> list[tuple[str, str, str]]:
    rng = random.Random(seed)
    return [chinese(rng) if rng.random() < 0.1 else english(rng) for _ in range(n)]


def jsonl(items: list[tuple[str, str, str]]) -> bytes:
    lines = (
        json.dumps(
            {"messages": [{"role": "user", "content": question}], "answer": reference},
            ensure_ascii=False,
        )
        for question, reference, _ in items
    )
    return ("\n".join(lines) + "\n").encode()


def baseline(items: list[tuple[str, str, str]]) -> dict[str, Any]:
    """text_scores over every (prediction, reference) pair in this process, after a warm-up."""
    from app.metrics._text_scores import text_scores

    text_scores("图中有一个男人。", "一个男人在公园里。")  # jieba's dictionary, punkt tables
    text_scores("A man in the park.", "The man is in the park.")
    sums = dict.fromkeys(BLEU_KEYS + ROUGE_KEYS, 0.0)
    started = time.perf_counter()
    for _, reference, prediction in items:
        for key, value in text_scores(prediction, reference).items():
            sums[key] += value
    elapsed = time.perf_counter() - started
    return {
        "seconds": elapsed,
        "samples_per_s": len(items) / elapsed,
        "means": {key: round(total / len(items), 4) for key, total in sums.items()},
    }


def tree(pid: int) -> list[int]:
    """pid and its descendants, from /proc/PID/task/*/children."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in children:
            found.extend(tree(int(child)))
    return found


class Sampler(threading.Thread):
    """Peak RSS (KiB) of each service process, every 10 ms, by phase; and of their children
    (RQ's scheduler, forked by `loupe worker`), kept apart: a fork shares its parent's pages."""

    def __init__(self, pids: list[int]) -> None:
        super().__init__(daemon=True)
        self.pids = pids
        self.idle = self.read()
        self.peaks = dict(self.idle)
        self.phases: dict[str, dict[str, int]] = {}
        self.running = True
        self.lock = threading.Lock()

    def read(self) -> dict[str, int]:
        values = {}
        for pid in self.pids:
            values[str(pid)] = rss_kib(pid)
            children = tree(pid)[1:]
            values[f"{pid}-children"] = sum(rss_kib(child) for child in children)
        return values

    def run(self) -> None:
        while self.running:
            try:
                values = self.read()
            except OSError:  # a child exited between listing and reading
                values = {}
            with self.lock:
                for key, value in values.items():
                    self.peaks[key] = max(self.peaks[key], value)
            time.sleep(0.01)

    def end_phase(self, name: str) -> None:
        with self.lock:
            self.phases[name] = dict(self.peaks)
            self.peaks = self.read()

    def stop(self) -> None:
        self.running = False
        self.join()


def epoch(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def upload(client: httpx.Client, data: bytes) -> dict[str, Any]:
    response = client.post(
        "/v1/datasets",
        files={"file": (FILENAME, data, "application/jsonl")},
        data={"format": "general_vqa"},
    )
    if response.status_code != 201:
        raise SystemExit(f"upload: {response.status_code}: {response.text[:500]}")
    return response.json()


def run_body(dataset: dict[str, Any], items: list[tuple[str, str, str]]) -> bytes:
    subset = dataset["subsets"][0]["name"]  # the file's stem
    predictions = [
        {"subset": subset, "index": i, "prediction": prediction}
        for i, (_, _, prediction) in enumerate(items)
    ]
    return json.dumps(
        {"dataset_id": dataset["id"], "predictions": predictions}, ensure_ascii=False
    ).encode()


def submit(client: httpx.Client, body: bytes) -> str:
    response = client.post("/v1/runs", content=body, headers={"Content-Type": "application/json"})
    if response.status_code != 202:
        raise SystemExit(f"run: {response.status_code}: {response.text[:500]}")
    return response.json()["id"]


def wait(client: httpx.Client, run_id: str, poll: float | None) -> tuple[dict, list[float]]:
    """Poll until the run ends (every `poll` s, or as Retry-After says); (run, poll latencies)."""
    polls = []
    while True:
        asked = time.perf_counter()
        polled = client.get(f"/v1/runs/{run_id}")
        polls.append(time.perf_counter() - asked)
        state = polled.json()
        if state["status"] in ("completed", "failed", "canceled"):
            return state, polls
        time.sleep(poll if poll is not None else float(polled.headers["Retry-After"]))


def run_mode(mode: str, items: list[tuple[str, str, str]], poll: float | None) -> dict[str, Any]:
    n = len(items)
    # No judge is called (rule strategy); the URL is a loopback port nothing listens on.
    no_judge = SimpleNamespace(base_url="http://127.0.0.1:9/v1")
    with service(mode, no_judge) as (base_url, env, pids):
        key = subprocess.run(
            [str(LOUPE), "keys", "create", "--create-tenant", "--tenant", "bench"],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()[-1]
        headers = {"Authorization": f"Bearer {key}"}
        with httpx.Client(
            base_url=base_url, headers=headers, timeout=900, trust_env=False
        ) as client:
            # Warm-up, as the baseline has one: imports, jieba's dictionary, punkt tables.
            fresh = [rss_kib(pid) for pid in pids]
            warm = items[:50]
            started = time.perf_counter()
            run_id = submit(client, run_body(upload(client, jsonl(warm)), warm))
            warm_state, _ = wait(client, run_id, 0.1)
            warm_s = time.perf_counter() - started
            time.sleep(1.0)
            sampler = Sampler(pids)
            sampler.start()

            data = jsonl(items)
            started = time.perf_counter()
            dataset = upload(client, data)
            upload_s = time.perf_counter() - started
            sampler.end_phase("upload")
            body = run_body(dataset, items)
            cpu_before = [cpu_seconds(pid) for pid in pids]
            submitted = time.time()
            started = time.perf_counter()
            run_id = submit(client, body)
            submit_s = time.perf_counter() - started
            sampler.end_phase("submit")
            state, polls = wait(client, run_id, poll)
            seen_s = time.perf_counter() - started
            cpu_s = [cpu_seconds(pid) - cpu_before[i] for i, pid in enumerate(pids)]
            sampler.end_phase("run")

            gets = []
            for _ in range(3):
                asked = time.perf_counter()
                final = client.get(f"/v1/runs/{run_id}")
                gets.append(time.perf_counter() - asked)
                final.raise_for_status()
            report = final.json()["report"]
            started = time.perf_counter()
            exported = client.get(f"/v1/runs/{run_id}/samples/export", params={"format": "csv"})
            export_s = time.perf_counter() - started
            exported.raise_for_status()
            sampler.end_phase("reads")
        sampler.stop()
        hwm = {pid: rss_kib(pid, "VmHWM") for pid in pids}
    overall = {row["metric"]: row for row in report if row["subset"] == "OVERALL"}
    missing = [k for k in BLEU_KEYS + ROUGE_KEYS if overall.get(k, {}).get("num") != n]
    csv_rows = list(csv.reader(io.StringIO(exported.text)))
    return {
        "mode": mode,
        "n": n,
        "warmup_s": warm_s,
        "warmup_status": warm_state["status"],
        "fresh_rss_kib": fresh,
        "status": state["status"],
        "result_counts": state["result_counts"],
        "upload_bytes": len(data),
        "upload_s": upload_s,
        "submit_bytes": len(body),
        "submit_s": submit_s,
        # Submit -> completed_at (server clock, same machine): polling adds no error.
        "wall_s": epoch(state["completed_at"]) - submitted,
        "scoring_s": epoch(state["completed_at"]) - epoch(state["started_at"]),
        "seen_s": seen_s,
        "samples_per_s": n / (epoch(state["completed_at"]) - submitted),
        "cpu_s": cpu_s,
        "cpu_ms_per_sample": 1000 * sum(cpu_s) / n,
        "polls": len(polls),
        "poll_s_median": statistics.median(polls),
        "poll_s_max": max(polls),
        "get_run_s": gets,
        "export_s": export_s,
        "export_bytes": len(exported.content),
        "export_rows": len(csv_rows) - 1,
        "report_missing": missing,
        "overall": {k: overall[k]["score"] for k in BLEU_KEYS + ROUGE_KEYS if k in overall},
        # Per phase, per service process: its own RSS peak, and its children's (summed).
        "rss_kib": {
            phase: {
                "own": [values[str(pid)] for pid in pids],
                "children": [values[f"{pid}-children"] for pid in pids],
            }
            for phase, values in {"idle": sampler.idle, **sampler.phases}.items()
        },
        "vmhwm_kib": list(hwm.values()),
    }


def mib(values: list[int]) -> str:
    return " + ".join(f"{value / 1024:.0f}" for value in values)


def peak_own(rss: dict[str, dict[str, list[int]]], part: str = "own") -> list[int]:
    phases = [rss[phase][part] for phase in ("upload", "submit", "run", "reads")]
    return [max(values) for values in zip(*phases, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--mode", choices=("embedded", "rq", "both"), default="embedded")
    parser.add_argument(
        "--poll", type=float, default=None, help="seconds between polls (default: Retry-After)"
    )
    args = parser.parse_args()
    items = samples(args.n)
    chinese_rows = sum(any("\u4e00" <= c <= "\u9fa5" for c in ref) for _, ref, _ in items)
    empty = sum(not prediction for _, _, prediction in items)
    exact = sum(prediction == ref for _, ref, prediction in items)
    print(
        f"dataset: {args.n} General-VQA rows ({chinese_rows} Chinese); predictions: "
        f"{exact} exact, {empty} empty"
    )
    base = baseline(items)
    print(
        f"baseline (text_scores in one process): {base['seconds']:.2f}s, "
        f"{base['samples_per_s']:.0f} samples/s; bleu-1 {base['means']['bleu-1']:.4f}, "
        f"Rouge-L-R {base['means']['Rouge-L-R']:.4f}",
        flush=True,
    )
    modes = ["embedded", "rq"] if args.mode == "both" else [args.mode]
    results = []
    for mode in modes:
        row = run_mode(mode, items, args.poll)
        results.append(row)
        rss = row["rss_kib"]
        counts = row["result_counts"]
        print(f"\n[{mode}] status {row['status']}, results {json.dumps(counts)}")
        print(
            f"  warm-up run of 50 samples (upload, submit, completed): {row['warmup_s']:.2f}s, "
            f"{row['warmup_status']}; RSS before it {mib(row['fresh_rss_kib'])} MiB"
        )
        print(
            f"  upload {row['upload_bytes'] / 1e6:.2f} MB: {row['upload_s']:.2f}s; "
            f"POST /v1/runs {row['submit_bytes'] / 1e6:.2f} MB "
            f"({row['submit_bytes'] / DEFAULT_MAX_BODY:.0%} of the default body limit): "
            f"{row['submit_s']:.2f}s"
        )
        print(
            f"  submit -> completed {row['wall_s']:.2f}s (started -> completed "
            f"{row['scoring_s']:.2f}s; seen by polling after {row['seen_s']:.2f}s): "
            f"{row['samples_per_s']:.0f} samples/s; service/baseline "
            f"{row['samples_per_s'] / base['samples_per_s']:.2f}"
        )
        print(
            f"  service CPU {row['cpu_ms_per_sample']:.2f} ms/sample "
            f"({' + '.join(f'{c:.1f}' for c in row['cpu_s'])} s"
            f"{' API + worker' if mode == 'rq' else ''}); baseline "
            f"{1000 / base['samples_per_s']:.2f} ms/sample"
        )
        print(
            f"  polls while running: {row['polls']}, median {row['poll_s_median'] * 1000:.0f} ms, "
            f"max {row['poll_s_max'] * 1000:.0f} ms"
        )
        print(
            "  GET /v1/runs/{id} (completed): "
            + ", ".join(f"{t * 1000:.0f} ms" for t in row["get_run_s"])
            + f"; CSV export {row['export_s']:.2f}s, {row['export_bytes'] / 1e6:.1f} MB, "
            f"{row['export_rows']} rows"
        )
        print(
            f"  RSS MiB ({'API + worker' if mode == 'rq' else 'API'}): "
            f"idle {mib(rss['idle']['own'])}, peak upload {mib(rss['upload']['own'])}, "
            f"submit {mib(rss['submit']['own'])}, scoring {mib(rss['run']['own'])}, "
            f"reads {mib(rss['reads']['own'])}; "
            f"VmHWM {mib(row['vmhwm_kib'])}"
        )
        if any(rss["run"]["children"]):
            print(
                f"  child processes (RQ scheduler) RSS MiB: idle {mib(rss['idle']['children'])}, "
                f"peak {mib(peak_own(rss, 'children'))}"
            )
        same = all(row["overall"].get(k) == base["means"][k] for k in BLEU_KEYS + ROUGE_KEYS)
        print(
            f"  report OVERALL: bleu-1 {row['overall'].get('bleu-1')}, "
            f"Rouge-L-R {row['overall'].get('Rouge-L-R')}; "
            + (
                f"all 13 keys num == {row['n']}"
                if not row["report_missing"]
                else f"keys without num == N: {row['report_missing']}"
            )
            + f"; {'equal to' if same else 'DIFFERENT from'} the baseline's means",
            flush=True,
        )
    print(
        f"\n{'mode':9} {'N':>6} {'upload s':>8} {'submit s':>8} {'wall s':>7} {'samples/s':>9} "
        f"{'baseline/s':>10} {'ratio':>5} {'CPU ms/s':>8} {'GET ms':>6} {'CSV s':>5} "
        f"{'RSS idle->peak MiB':>22}"
    )
    for row in results:
        rss = row["rss_kib"]
        peak = peak_own(rss)
        print(
            f"{row['mode']:9} {row['n']:6d} {row['upload_s']:8.2f} {row['submit_s']:8.2f} "
            f"{row['wall_s']:7.2f} {row['samples_per_s']:9.0f} {base['samples_per_s']:10.0f} "
            f"{row['samples_per_s'] / base['samples_per_s']:5.2f} "
            f"{row['cpu_ms_per_sample']:8.2f} {min(row['get_run_s']) * 1000:6.0f} "
            f"{row['export_s']:5.2f} {mib(rss['idle']['own']) + ' -> ' + mib(peak):>22}"
        )
    print(json.dumps({"baseline": base, "runs": results}))


if __name__ == "__main__":
    main()
