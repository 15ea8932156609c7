#!/usr/bin/env python3
"""Names each paper by its key (docs/references.md) in comments, docs and identifiers: "seed 000" becomes br07,
Seed004Section2 Bbr10Section2. String literals (program output), fenced code and `code spans` stay as they are.
Usage, from the repository root (idempotent; a page citing a seed file itself says "the seed file 003"):
  git ls-files | grep -v -E '^(apps/golden/|fuzz/seeds/|docs/references.md)' | xargs /usr/bin/python3 scripts/paper-keys.py
"""
import re, sys

KEY = {'000': 'br07', '003': 'br07', '001': 'sv95', '002': 'hedpm', '004': 'bbr10'}
CAMEL = {'000': 'Br07', '003': 'Br07', '001': 'Sv95', '002': 'Hedpm', '004': 'Bbr10'}

def prose(text):
    t = text
    t = re.sub(r'[Ss]eed 000 \(Benoit & Robert\),? ', 'br07 ', t)
    t = re.sub(r'[Ss]eed 000 \(Benoit & Robert\)', 'br07', t)
    t = re.sub(r'[Ss]eed 001 \(Subhlok[–-]Vondran\)', 'sv95', t)
    t = re.sub(r'[Ss]eeds 000/003', 'br07', t)
    t = re.sub(r'[Ss]eeds 001/002', 'sv95 and hedpm', t)
    t = re.sub(r'[Ss]eeds 000 §5, 002 §5, 004 §7', 'br07 §5, hedpm §5, bbr10 §7', t)
    t = re.sub(r'[Ss]eeds 000 and 003', 'br07', t)
    t = re.sub(r'[Ss]eed (00[0-4])', lambda m: KEY[m.group(1)], t)
    t = re.sub(r'\b[Aa] Subhlok[–-]Vondran\b', lambda m: ('An' if m.group(0)[0] == 'A' else 'an') + ' sv95', t)
    t = re.sub(r'Subhlok[–-]Vondran', 'sv95', t)
    return t

def identifiers(code):
    return re.sub(r'Seed(00[0-4])', lambda m: CAMEL[m.group(1)], code)

def cpp(src):
    """Applies prose() to comments and identifiers() to code, keeping string and character literals."""
    out, i, n = [], 0, len(src)
    code_start = 0
    def flush_code(end):
        out.append(identifiers(src[code_start:end]))
    while i < n:
        c = src[i]
        if src.startswith('//', i):
            flush_code(i); j = src.find('\n', i); j = n if j < 0 else j
            out.append(prose(src[i:j])); i = j; code_start = i; continue
        if src.startswith('/*', i):
            flush_code(i); j = src.find('*/', i + 2); j = n if j < 0 else j + 2
            out.append(prose(src[i:j])); i = j; code_start = i; continue
        m = re.match(r'R"([^(\s]*)\(', src[i:i + 20]) if c == 'R' and (i == 0 or not (src[i-1].isalnum() or src[i-1] == '_')) else None
        if m:
            flush_code(i); end = src.find(')' + m.group(1) + '"', i); end = n if end < 0 else end + len(m.group(1)) + 2
            out.append(src[i:end]); i = end; code_start = i; continue
        if c in '"\'':
            if c == "'" and i > 0 and src[i-1].isalnum():  # digit separator 1'000
                i += 1; continue
            flush_code(i); j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == '\\' else 1
            out.append(src[i:j + 1]); i = j + 1; code_start = i; continue
        i += 1
    flush_code(n)
    return ''.join(out)

def hash_comments(src):
    """Comments after an unquoted '#' (YAML, CMake, shell, Python)."""
    lines = []
    for line in src.split('\n'):
        quote, k = None, None
        for idx, ch in enumerate(line):
            if quote:
                if ch == quote: quote = None
            elif ch in '"\'':
                quote = ch
            elif ch == '#' and (idx == 0 or line[idx - 1] in ' \t'):
                k = idx; break
        lines.append(line if k is None else line[:k] + prose(line[k:]))
    return '\n'.join(lines)

def markdown(src):
    """Prose outside fenced code blocks and inline code spans."""
    out, fenced = [], False
    for line in src.split('\n'):
        if line.lstrip().startswith('```'):
            fenced = not fenced; out.append(line); continue
        if fenced: out.append(line); continue
        parts = re.split(r'(`[^`]*`)', line)
        out.append(''.join(p if p.startswith('`') else prose(p) for p in parts))
    return '\n'.join(out)

for path in sys.argv[1:]:
    src = open(path, encoding='utf-8').read()
    if path.endswith(('.cpp', '.hpp', '.h')):
        new = cpp(src)
    elif path.endswith('.md'):
        new = markdown(src)
    elif path.endswith(('.yaml', '.yml', '.sh', '.py', '.cmake', 'CMakeLists.txt', '.gp')):
        new = hash_comments(src)
    else:
        continue
    if new != src:
        open(path, 'w', encoding='utf-8').write(new)
