#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target from the repository's own fixtures.

A pipeline target's input is one split byte followed by base and head bytes (see
src/fuzzing.rs): each fixture case that has the target's file on both sides (or one side)
becomes one seed. Run from the repository root: python3 fuzz/seed.py
"""
import hashlib
import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"
MAX_SEEDS = 12
MAX_BYTES = 6000

targets = re.findall(
    r'\("([a-z_]+)", Input::(\w+)(?:\("([^"]+)"\))?\)',
    (ROOT / "src" / "fuzzing.rs").read_text(),
)


def save(name, data):
    folder = CORPUS / name
    folder.mkdir(parents=True, exist_ok=True)
    if len(list(folder.iterdir())) >= MAX_SEEDS or len(data) > MAX_BYTES:
        return
    (folder / ("seed-" + hashlib.sha1(data).hexdigest()[:12])).write_bytes(data)


def pair(base, head):
    total = len(base) + len(head)
    split = 0 if total == 0 else min(255, round(len(base) * 255 / total))
    # The split byte must land exactly on len(base): widen base until it does.
    while total and len(head) and (total * split) // 255 < len(base):
        split += 1
    return bytes([split]) + base + head


def cases():
    for case in sorted((ROOT / "fixtures").glob("*/*")):
        if case.parent.name in ("leaked-secret",) or not case.is_dir():
            continue
        yield case


for name, kind, path in targets:
    if kind == "FilePair":
        suffix = pathlib.PurePosixPath(path).suffix or pathlib.PurePosixPath(path).name
        for case in cases():
            base = [p for p in (case / "base").rglob("*") if p.is_file()]
            head = [p for p in (case / "head").rglob("*") if p.is_file()]
            def pick(files):
                exact = [p for p in files if p.name == pathlib.PurePosixPath(path).name]
                loose = [p for p in files if p.name.endswith(suffix)]
                return (exact or loose or [None])[0]
            b, h = pick(base), pick(head)
            if b is None and h is None:
                continue
            save(name, pair(b.read_bytes() if b else b"", h.read_bytes() if h else b""))
    elif kind == "Policy":
        for p in sorted((ROOT / "fixtures").rglob(".integrity-gate.yml")):
            save(name, p.read_bytes())
        save(name, (ROOT / ".integrity-gate.yml").read_bytes())
    elif kind == "Event":
        for p in sorted((ROOT / "fixtures" / "_github" / "events").glob("*.json")):
            save(name, p.read_bytes())
    elif kind == "RelayReport":
        finding = {"rule": "skipped-test", "severity": "error", "path": "tests/test_a.py",
                   "line": 3, "end_line": 4, "side": "head",
                   "message": "test `test_a` is now skipped", "snippet": "@pytest.mark.skip"}
        report = {"version": 1, "base": "1" * 40, "head": "0" * 40, "findings": [finding],
                  "summary": {"files_scanned": 1, "findings": 1, "blocking": 1}}
        save(name, json.dumps(report).encode())
        report["findings"] = []
        report["summary"] = {"files_scanned": 0, "findings": 0, "blocking": 0}
        save(name, json.dumps(report).encode())
    elif kind == "Secrets":
        # Prefixes and shapes only: the fuzzer grows them into tokens; no credential is committed.
        for line in ["token = ghp_", "AKIA", "-----BEGIN RSA PRIVATE KEY-----",
                     "url = https://user:@host/", "api_key: \"\"", "password=", "xoxb-",
                     "sk_live_", "Authorization: Bearer "]:
            save(name, line.encode())
for folder in sorted(CORPUS.iterdir()):
    print(folder.name, len(list(folder.iterdir())))
