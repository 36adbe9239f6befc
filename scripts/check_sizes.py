#!/usr/bin/env python3
"""Sizes a reader can take in: no file in cli/ or service/ over 300 lines, no
function in the C++ sources (engine, analysis, records, review, cli,
service, bench, fuzz, tests) over 100 lines, except the ones named in the
allow-list with why.

Usage: check_sizes.py ROOT [ALLOW_LIST]   (default: ROOT/scripts/size_allowlist.txt)

Prints each violation ("path: N lines", "path:line Name: N lines") and each
allow-list entry that no longer matches anything (so that the list shrinks
with the code); exits 1 when there is either, 0 when there is neither.

A function is measured from the first line of its declaration to its
closing brace, by matching braces in the text with comments, strings,
character literals and preprocessor lines blanked out: a brace after a
parenthesis at namespace or class level opens a function body (a TEST(...)
body too); lambdas and local classes count as part of the function they
are written in.
"""
import os
import re
import sys

FILE_LIMIT = 300
FUNCTION_LIMIT = 100
FILE_FOLDERS = ("cli", "service")
SOURCE_FOLDERS = ("engine", "analysis", "records", "review", "cli", "service", "bench", "fuzz", "tests")
SOURCE_SUFFIXES = (".cc", ".h")


def blank(text):
    """The text with comments, strings, character literals and preprocessor
    lines replaced by spaces (newlines kept, so line numbers stay)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            # A preprocessor line, with its continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        if c == "/" and text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if c == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        raw = re.match(r'(?:u8|u|U|L)?R"([^()\\ \n]{0,16})\(', text[i:i + 24])
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = text.find(")" + raw.group(1) + '"', i + raw.end())
            end = n if end < 0 else end + len(raw.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        if c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):
            # A string or a character literal (not a digit separator: 1'000).
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i))
            i = j
            continue
        out.append(c)
        line_start = c == "\n" or (line_start and c in " \t")
        i += 1
    return "".join(out)


def strip_templates(head):
    """`template <...>` prefixes removed from a declaration's text."""
    while True:
        m = re.match(r"\s*template\s*<", head)
        if not m:
            return head
        depth, i = 1, m.end()
        while i < len(head) and depth:
            depth += {"<": 1, ">": -1}.get(head[i], 0)
            i += 1
        head = head[i:]


def top_level(head):
    """The head with everything inside parentheses, brackets and braces
    removed (the parentheses themselves kept)."""
    out, depth = [], 0
    for c in head:
        if c in "([{":
            if depth == 0:
                out.append(c)
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                out.append(c)
        elif depth == 0:
            out.append(c)
    return "".join(out)


def classify(head):
    """What a brace opened after `head` at namespace or class level is:
    namespace, type (class, struct, union, enum), function, or init (an
    initializer or anything else, whose braces belong to what it is in)."""
    h = strip_templates(head)
    flat = top_level(h)
    if re.search(r"\bnamespace\b", flat) or (re.search(r"\bextern\b", flat) and "(" not in flat):
        return "namespace"
    before_paren = flat.split("(")[0]
    if re.search(r"\b(class|struct|union|enum)\b", before_paren):
        return "type"
    if "(" not in flat:
        return "init"
    flat_ops = re.sub(r"\boperator\s*[^\s(]+\s*(?=\()", "operator", flat)
    flat_ops = re.sub(r"[=!<>]=|<=>", "", flat_ops)
    if "=" in flat_ops:
        # A lambda at namespace level is a function; any other `=` an initializer.
        return "function" if re.search(r"=\s*\[", flat_ops) else "init"
    after_parameters = flat[flat.find(")") + 1:]
    if re.search(r"(?<!:):(?!:)", after_parameters) and not re.search(r"[)}]\s*$", flat):
        # A constructor's member initializer list: in `: a_(a), b_{` the
        # brace is b_'s, not yet the body's.
        return "init"
    return "function"


def function_name(head, classes):
    h = strip_templates(head)
    flat = top_level(h)
    if re.search(r"=\s*\[", flat):
        m = re.search(r"([A-Za-z_]\w*)\s*=\s*\[", flat)
        return m.group(1) if m else "lambda"
    m = re.search(r"((?:~?[A-Za-z_]\w*(?:<[^()]*>)?::)*(?:operator\s*[^\s(]+|~?[A-Za-z_]\w*))\s*\(", h)
    if not m:
        return "?"
    name = re.sub(r"<[^()]*>", "", m.group(1))
    if re.fullmatch(r"[A-Z][A-Z0-9_]*", name):
        # A test macro: TEST(Suite, Name) names the test.
        args = re.match(r"\s*\(([^)]*)\)", h[m.end() - 1:])
        if args:
            name = "%s(%s)" % (name, ", ".join(a.strip() for a in args.group(1).split(",")))
    if classes and "::" not in name:
        name = "::".join(classes + [name])
    return name


def functions(text):
    """(name, first line, line count) of every function in `text`."""
    s = blank(text)
    found = []
    stack = []  # (kind, name) of each brace open at namespace or class level
    head_start = 0
    paren = 0
    i, n = 0, len(s)
    line_of = lambda pos: s.count("\n", 0, pos) + 1
    while i < n:
        c = s[i]
        if c in "([":
            paren += 1
        elif c in ")]":
            paren -= 1
        elif c == ";" and paren == 0:
            head_start = i + 1
        elif c == "{" and paren == 0:
            head = s[head_start:i]
            kind = classify(head)
            if kind == "init":
                # Skip to the matching brace; the head goes on.
                depth = 1
                i += 1
                while i < n and depth:
                    depth += {"{": 1, "}": -1}.get(s[i], 0)
                    i += 1
                continue
            if kind == "function":
                depth = 1
                j = i + 1
                while j < n and depth:
                    depth += {"{": 1, "}": -1}.get(s[j], 0)
                    j += 1
                first = head_start + (len(head) - len(head.lstrip()))
                classes = [name for k, name in stack if k == "type"]
                start_line, end_line = line_of(first), line_of(j - 1)
                found.append((function_name(head, classes), start_line, end_line - start_line + 1))
                i = j
                head_start = i
                continue
            name = ""
            if kind == "type":
                m = re.search(r"\b(?:class|struct|union|enum)\s+(?:class\s+|struct\s+)?(?:\[\[[^\]]*\]\]\s*)?(\w+)",
                              strip_templates(head))
                name = m.group(1) if m else ""
            stack.append((kind, name))
            head_start = i + 1
        elif c == "}" and paren == 0:
            if stack:
                stack.pop()
            head_start = i + 1
        elif c == ":" and paren == 0 and stack and stack[-1][0] == "type":
            # `public:` and the like end a head in a class.
            before = s[head_start:i].strip()
            if before in ("public", "private", "protected"):
                head_start = i + 1
        i += 1
    return found


def read_allow_list(path):
    """{key: reason}; a key is a path (a file over its size) or path:Name (a
    function over its size)."""
    allowed = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, sep, reason = line.partition("  ")
            if not sep or not reason.strip():
                sys.exit("%s:%d: an entry is 'KEY  REASON' (two spaces), with a reason: %s" % (path, number, line))
            allowed[key.strip()] = reason.strip()
    return allowed


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    root = sys.argv[1]
    allow_path = sys.argv[2] if len(sys.argv) == 3 else os.path.join(root, "scripts", "size_allowlist.txt")
    allowed = read_allow_list(allow_path)
    used = set()
    problems = []
    for folder in SOURCE_FOLDERS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, folder)):
            dirnames[:] = sorted(d for d in dirnames if d not in ("node_modules", "corpus"))
            for filename in sorted(filenames):
                if not filename.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(dirpath, filename)
                rel = os.path.relpath(path, root)
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
                if rel.split(os.sep)[0] in FILE_FOLDERS and lines > FILE_LIMIT:
                    if rel in allowed:
                        used.add(rel)
                    else:
                        problems.append("%s: %d lines, more than %d" % (rel, lines, FILE_LIMIT))
                for name, line, count in functions(text):
                    key = "%s:%s" % (rel, name)
                    if count <= FUNCTION_LIMIT:
                        continue
                    if key in allowed:
                        used.add(key)
                    else:
                        problems.append("%s:%d %s: %d lines, more than %d" % (rel, line, name, count, FUNCTION_LIMIT))
    for key in sorted(set(allowed) - used):
        problems.append("%s: on the allow-list (%s) but within the limit or gone: take it off" % (key, allowed[key]))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
