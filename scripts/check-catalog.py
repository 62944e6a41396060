#!/usr/bin/env python3
"""Checks Sources/Catalog/Resources/catalog.json, the built-in catalog of public blocklists.

Usage: scripts/check-catalog.py [path/to/catalog.json]

Checks the schema (keys, key order, types), lowercase kebab-case ids, unique ids and list URLs,
https-only URLs, formats and categories from the allowed sets, estimatedNames > 0, non-empty
licences, that every preset reference exists, that the five presets form one cumulative chain
(each `extends` the one before) without adding a list twice, that sources are sorted by category
then id, and that the file is serialised as json.dumps(indent=2) with a trailing newline.
Prints one line per problem and exits 1 if there is any (2 if the file cannot be read at all).
"""
import json
import os
import re
import sys
from urllib.parse import urlsplit

FORMATS = {"hosts", "domains", "adblock", "wildcard", "dnsmasq", "unbound", "rpz"}
CATEGORIES = {
    "multipurpose", "ads", "trackers", "malware", "phishing", "telemetry",
    "social", "gambling", "adult", "fake-news", "crypto-mining", "annoyances",
}
PRESETS = ["essentials", "family-safe", "focus-mode", "privacy-shield", "kitchen-sink"]

TOP_KEYS = ["version", "categories", "sources", "presets"]
CATEGORY_KEYS = ["id", "name", "description"]
SOURCE_KEYS = ["id", "name", "homepage", "url", "format", "category", "licence", "estimatedNames", "description"]
PRESET_KEYS = ["id", "name", "description", "extends", "adds"]

ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


class Checker:
    def __init__(self):
        self.problems = []

    def problem(self, where, message):
        self.problems.append(f"{where}: {message}")

    def keys(self, where, obj, expected, optional=()):
        if not isinstance(obj, dict):
            self.problem(where, f"must be an object, found {type(obj).__name__}")
            return False
        found = [k for k in obj.keys() if k not in optional]
        missing = [k for k in expected if k not in obj]
        extra = [k for k in found if k not in expected]
        if missing:
            self.problem(where, f"missing key(s) {', '.join(missing)}")
        if extra:
            self.problem(where, f"unexpected key(s) {', '.join(extra)}")
        if not missing and not extra and found != expected:
            self.problem(where, f"keys out of order: {found}, expected {expected}")
        return not missing

    def text(self, where, obj, key):
        value = obj.get(key)
        if not isinstance(value, str) or not value.strip():
            self.problem(where, f"'{key}' must be a non-empty string, found {value!r}")
            return False
        if value != value.strip():
            self.problem(where, f"'{key}' has leading or trailing whitespace")
        return True

    def ident(self, where, obj, key="id"):
        if self.text(where, obj, key) and not ID.match(obj[key]):
            self.problem(where, f"'{key}' {obj[key]!r} is not lowercase kebab-case")

    def https(self, where, obj, key):
        if not self.text(where, obj, key):
            return
        value = obj[key]
        parts = urlsplit(value)
        if parts.scheme != "https":
            self.problem(where, f"'{key}' must be an https URL, found {value!r}")
        elif not parts.hostname:
            self.problem(where, f"'{key}' has no host: {value!r}")
        if any(c.isspace() for c in value):
            self.problem(where, f"'{key}' contains whitespace: {value!r}")


def url_key(url):
    """The URL compared for duplicates: scheme and host lowercased, trailing slash ignored."""
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    return (parts.scheme.lower(), (parts.hostname or "").lower(), parts.port, path, parts.query)


def check(path):
    c = Checker()
    try:
        with open(path, encoding="utf-8") as f:
            raw = f.read()
    except OSError as error:
        print(f"{path}: cannot read: {error}", file=sys.stderr)
        sys.exit(2)
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        print(f"{path}: not valid JSON: {error}", file=sys.stderr)
        sys.exit(2)

    if not c.keys("catalog", data, TOP_KEYS):
        return c.problems
    if data["version"] != 1 or isinstance(data["version"], bool):
        c.problem("catalog", f"'version' must be 1, found {data['version']!r}")
    for key in ("categories", "sources", "presets"):
        if not isinstance(data[key], list):
            c.problem("catalog", f"'{key}' must be an array")
            return c.problems

    # Categories
    category_ids = []
    for i, category in enumerate(data["categories"]):
        where = f"categories[{i}]"
        if not c.keys(where, category, CATEGORY_KEYS):
            continue
        where = f"category {category.get('id')!r}"
        c.ident(where, category)
        c.text(where, category, "name")
        c.text(where, category, "description")
        if category["id"] in category_ids:
            c.problem(where, "duplicate category id")
        elif isinstance(category["id"], str) and category["id"] not in CATEGORIES:
            c.problem(where, f"not an allowed category id (allowed: {', '.join(sorted(CATEGORIES))})")
        category_ids.append(category["id"])
    for missing in sorted(CATEGORIES - set(category_ids)):
        c.problem("categories", f"allowed category {missing!r} is not declared")

    # Sources
    source_ids, seen_urls, order = {}, {}, []
    for i, source in enumerate(data["sources"]):
        where = f"sources[{i}]"
        if not c.keys(where, source, SOURCE_KEYS, optional=("mirrors",)):
            continue
        where = f"source {source.get('id')!r}"
        c.ident(where, source)
        c.text(where, source, "name")
        c.https(where, source, "homepage")
        c.https(where, source, "url")
        mirrors = source.get("mirrors", [])
        if not isinstance(mirrors, list) or not all(isinstance(m, str) for m in mirrors):
            c.problem(where, "'mirrors' must be a list of URLs")
        else:
            for m in mirrors:
                if not m.startswith("https://") or m == source.get("url"):
                    c.problem(where, f"mirror {m!r} must be an https URL other than the list's own")
            if len(set(mirrors)) != len(mirrors):
                c.problem(where, "a mirror is given twice")
        c.text(where, source, "licence")
        c.text(where, source, "description")
        if source["format"] not in FORMATS:
            c.problem(where, f"format {source['format']!r} is not one of {', '.join(sorted(FORMATS))}")
        if source["category"] not in CATEGORIES:
            c.problem(where, f"category {source['category']!r} is not an allowed category")
        elif source["category"] not in category_ids:
            c.problem(where, f"category {source['category']!r} is not declared in 'categories'")
        n = source["estimatedNames"]
        if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
            c.problem(where, f"estimatedNames must be an integer > 0, found {n!r}")
        sid = source["id"]
        if sid in source_ids:
            c.problem(where, f"duplicate source id (also sources[{source_ids[sid]}])")
        else:
            source_ids[sid] = i
        if isinstance(source["url"], str):
            key = url_key(source["url"])
            if key in seen_urls:
                c.problem(where, f"duplicate url {source['url']!r} (also source {seen_urls[key]!r})")
            else:
                seen_urls[key] = sid
        if isinstance(source["category"], str) and isinstance(sid, str):
            order.append((source["category"], sid))
    if order != sorted(order):
        first = next(i for i, (a, b) in enumerate(zip(order, sorted(order))) if a != b)
        c.problem("sources", f"not sorted by category then id (first out of place: {order[first][1]!r} "
                             f"at index {first})")
    used = {category for category, _ in order}
    for category in category_ids:
        if category not in used:
            c.problem(f"category {category!r}", "has no sources")

    # Presets
    preset_ids = []
    added = {}
    for i, preset in enumerate(data["presets"]):
        where = f"presets[{i}]"
        if not c.keys(where, preset, PRESET_KEYS):
            preset_ids.append(None)
            continue
        where = f"preset {preset.get('id')!r}"
        c.ident(where, preset)
        c.text(where, preset, "name")
        c.text(where, preset, "description")
        pid = preset["id"]
        if pid in preset_ids:
            c.problem(where, "duplicate preset id")
        preset_ids.append(pid)
        expected_parent = preset_ids[i - 1] if i > 0 else None
        if preset["extends"] is not None and preset["extends"] not in [p for p in preset_ids[:i] if p]:
            if preset["extends"] in [p.get("id") for p in data["presets"] if isinstance(p, dict)]:
                c.problem(where, f"extends {preset['extends']!r}, which comes later: presets must be cumulative")
            else:
                c.problem(where, f"extends unknown preset {preset['extends']!r}")
        elif preset["extends"] != expected_parent:
            c.problem(where, f"extends {preset['extends']!r} but must extend {expected_parent!r} "
                             "(each preset builds on the previous one)")
        adds = preset["adds"]
        if not isinstance(adds, list) or not adds:
            c.problem(where, "'adds' must be a non-empty array of source ids")
            continue
        for sid in adds:
            if not isinstance(sid, str):
                c.problem(where, f"'adds' holds a non-string {sid!r}")
            elif sid not in source_ids:
                c.problem(where, f"adds unknown source {sid!r}")
            elif sid in added:
                c.problem(where, f"adds {sid!r} again (already in preset {added[sid]!r})")
            else:
                added[sid] = pid
    if preset_ids != PRESETS:
        c.problem("presets", f"must be exactly {PRESETS} in this order, found {preset_ids}")

    # Serialisation
    canonical = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if raw != canonical:
        line = next((n for n, (a, b) in enumerate(zip(raw.splitlines(), canonical.splitlines()), 1) if a != b),
                    min(len(raw.splitlines()), len(canonical.splitlines())) + 1)
        c.problem("file", f"not formatted as json.dumps(indent=2, ensure_ascii=False) plus a newline "
                          f"(first difference at line {line})")
    return c.problems


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "Sources", "Catalog", "Resources",
                                                              "catalog.json")
    problems = check(path)
    if problems:
        for problem in problems:
            print(f"{os.path.relpath(path)}: {problem}", file=sys.stderr)
        print(f"{len(problems)} problem(s) found.", file=sys.stderr)
        sys.exit(1)
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    print(f"{os.path.relpath(path)}: OK ({len(data['sources'])} sources in {len(data['categories'])} categories, "
          f"{len(data['presets'])} presets)")


if __name__ == "__main__":
    main()
