"""Scrapes a Prometheus endpoint and parses it with prometheus_client's parser (an independent implementation of the
text format), printing the families as JSON: {"name": {"type": ..., "samples": [[sample name, labels, value], ...]}}.

usage: parse_metrics.py URL [BEARER_TOKEN]
"""
import json
import sys
import urllib.request

from prometheus_client.parser import text_string_to_metric_families


def main():
    request = urllib.request.Request(sys.argv[1])
    if len(sys.argv) > 2:
        request.add_header("Authorization", "Bearer " + sys.argv[2])
    with urllib.request.urlopen(request, timeout=20) as response:
        content_type = response.headers.get("Content-Type", "")
        text = response.read().decode("utf-8")
    families = {}
    for family in text_string_to_metric_families(text):
        families[family.name] = {
            "type": family.type,
            "samples": [[sample.name, sample.labels, sample.value] for sample in family.samples],
        }
    print(json.dumps({"contentType": content_type, "families": families}))


if __name__ == "__main__":
    main()
