"""The seeds' reference measure, timed inside Python for bench/projection.

Usage: python3 python-reference.py TEXT_FILE POLICY_JSON

Reads the JSON text (UTF-8, newlines untranslated), then times
len(json.dumps(json.loads(text), ensure_ascii=False, sort_keys=True, separators=(",", ":"),
allow_nan=False).encode("utf-8")) with time.perf_counter under the same repetition policy as the
JavaScript cases (bench/lib/timing.mjs), and prints one JSON line on stdout:
{"bytes": N, "samples_ms": [...], "python": "3.x.y"}. Progress goes to stderr.
"""

import json
import sys
import time


def reference_bytes(text):
    return len(
        json.dumps(
            json.loads(text), ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False
        ).encode("utf-8")
    )


def main():
    path, policy = sys.argv[1], json.loads(sys.argv[2])
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()

    measured = reference_bytes(text)
    warm_start = time.perf_counter()
    reps = 0
    while reps < policy["warmupReps"] or (time.perf_counter() - warm_start) * 1000 < policy["warmupMs"]:
        reference_bytes(text)
        reps += 1

    samples = []
    start = last_report = time.perf_counter()
    while True:
        t0 = time.perf_counter()
        reference_bytes(text)
        t1 = time.perf_counter()
        samples.append((t1 - t0) * 1000)
        if len(samples) >= policy["maxReps"]:
            break
        if len(samples) >= policy["minReps"] and (t1 - start) * 1000 >= policy["minMs"]:
            break
        if t1 - last_report >= 2:
            last_report = t1
            print(f"      python: {len(samples)} reps, {t1 - start:.1f} s", file=sys.stderr, flush=True)

    print(json.dumps({"bytes": measured, "samples_ms": samples, "python": sys.version.split()[0]}))


if __name__ == "__main__":
    main()
