"""A server's full garbage collections so far, read from its ``/metrics`` (``ono99 serve
--metrics``: ``ono99_gc_pause_seconds``), for the server benchmarks: each full collection stops
every table on the process, so a few of them decide a p99."""

from __future__ import annotations

from collections import Counter

import httpx
from prometheus_client.parser import text_string_to_metric_families

LONG = "0.025"  # a bucket's bound: the collections over 25 ms are the ones a p99 feels


def full_collections(url: str) -> Counter[str]:
    """``count``, ``seconds`` (their sum) and ``long`` (how many took over 25 ms)."""
    seen: Counter[str] = Counter()
    text = httpx.get(f"{url}/metrics", timeout=10).text
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if family.name != "ono99_gc_pause_seconds" or s.labels.get("generation") != "2":
                continue
            if s.name.endswith("_count"):
                seen["count"] += s.value
            elif s.name.endswith("_sum"):
                seen["seconds"] += s.value
            elif s.name.endswith("_bucket") and s.labels["le"] == LONG:
                seen["short"] += s.value
    seen["long"] = seen["count"] - seen["short"]
    return seen
