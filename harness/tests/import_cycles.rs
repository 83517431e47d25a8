//! No import cycle among the harness's source files: every `use` and every
//! path through `crate::`, `super::`, `self::` or a child module is an edge
//! from the file that writes it to the file that defines it, and the graph of
//! those edges must have no cycle (test-only code, `tests.rs` files and
//! `mod tests` blocks, is left out). A module's `mod.rs` may name its
//! children; a child that needs something of its parent's imports the sibling
//! file that defines it.
//!
//! Run it with `cargo test -p phaseline --test import_cycles`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A source file: its module path (`["bisect", "oracle"]`), whether it is a
/// module root (`mod.rs`, `lib.rs`), its declared child modules and its code.
struct File {
    module: Vec<String>,
    root: bool,
    children: BTreeSet<String>,
    tokens: Vec<String>,
}

fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            source_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code without comments and without a trailing `#[cfg(test)] mod tests { ... }`.
fn production_code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim();
        if t == "#[cfg(test)]" && lines.peek().is_some_and(|n| n.trim().starts_with("mod tests {")) {
            break;
        }
        out.push_str(line.split("//").next().unwrap_or(""));
        out.push('\n');
    }
    out
}

/// Identifiers and the punctuation of paths and use trees; everything else is dropped.
fn tokens(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
            continue;
        }
        if c == '"' {
            // Skip a string literal (escapes included).
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push("\"\"".into());
            continue;
        }
        if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push("::".into());
            i += 2;
            continue;
        }
        if "{},;*".contains(c) {
            out.push(c.to_string());
        } else if !c.is_whitespace() {
            out.push("#".into());
        }
        i += 1;
    }
    out
}

/// Expands the use tree starting at `tokens[*i]` into whole paths.
fn use_tree(tokens: &[String], i: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    loop {
        match tokens.get(*i).map(String::as_str) {
            Some("{") => {
                *i += 1;
                loop {
                    use_tree(tokens, i, &path, out);
                    match tokens.get(*i).map(String::as_str) {
                        Some(",") => *i += 1,
                        _ => break,
                    }
                    if tokens.get(*i).map(String::as_str) == Some("}") {
                        break;
                    }
                }
                *i += 1; // `}`
                return;
            }
            Some("*") => {
                *i += 1;
                out.push(path);
                return;
            }
            Some(t) if t.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') => {
                // `a::{self, ..}` names `a` itself; a leading `self::` is kept.
                if t != "self" || path.is_empty() {
                    path.push(t.to_string());
                }
                *i += 1;
                if tokens.get(*i).map(String::as_str) == Some("::") {
                    *i += 1;
                    continue;
                }
                if tokens.get(*i).map(String::as_str) == Some("as") {
                    *i += 2;
                }
                out.push(path);
                return;
            }
            _ => {
                out.push(path);
                return;
            }
        }
    }
}

/// Every path the file names: use trees expanded, and `a::b::c` chains elsewhere.
fn paths(tokens: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == "use" {
            i += 1;
            use_tree(tokens, &mut i, &[], &mut out);
            continue;
        }
        let ident = |t: &str| t.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_');
        if ident(&tokens[i]) && tokens.get(i + 1).map(String::as_str) == Some("::") {
            let mut p = vec![tokens[i].clone()];
            let mut j = i + 1;
            while tokens.get(j).map(String::as_str) == Some("::") && tokens.get(j + 1).is_some_and(|t| ident(t)) {
                p.push(tokens[j + 1].clone());
                j += 2;
            }
            out.push(p);
            i = j;
            continue;
        }
        i += 1;
    }
    out
}

/// The module a path starts from, relative to `f`, or `None` for another crate.
fn absolute(f: &File, p: &[String]) -> Option<Vec<String>> {
    let mut base = f.module.clone();
    let mut rest = p;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("super") | Some("self") => {
            // A non-root file is its own module: `super` of `a/b.rs` is `a`.
            while let Some(s) = rest.first().map(String::as_str) {
                match s {
                    "super" => {
                        base.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                rest = &rest[1..];
            }
        }
        Some(first) if f.root && f.children.contains(first) => {}
        _ => return None,
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

fn modules() -> BTreeMap<String, File> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    source_files(&src, &mut files);
    let mut out = BTreeMap::new();
    for p in files {
        let rel = p
            .strip_prefix(&src)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        if rel.starts_with("bin/") || rel == "main.rs" || rel.ends_with("/tests.rs") || rel == "tests.rs" {
            continue;
        }
        let mut module: Vec<String> = rel.trim_end_matches(".rs").split('/').map(String::from).collect();
        let root = matches!(module.last().map(String::as_str), Some("mod" | "lib"));
        if root {
            module.pop();
        }
        let text = std::fs::read_to_string(&p).expect("source file");
        let code = production_code(&text);
        let tokens = tokens(&code);
        let mut children = BTreeSet::new();
        for w in tokens.windows(3) {
            if w[0] == "mod" && w[2] == ";" {
                children.insert(w[1].clone());
            }
        }
        out.insert(
            rel,
            File {
                module,
                root,
                children,
                tokens,
            },
        );
    }
    out
}

/// File -> the files it imports from.
fn edges(files: &BTreeMap<String, File>) -> BTreeMap<String, BTreeSet<String>> {
    let by_module: BTreeMap<Vec<String>, String> = files.iter().map(|(r, f)| (f.module.clone(), r.clone())).collect();
    let mut out = BTreeMap::new();
    for (rel, f) in files {
        let mut to = BTreeSet::new();
        for p in paths(&f.tokens) {
            let Some(abs) = absolute(f, &p) else { continue };
            // The deepest file module the path reaches (items follow it).
            let target = (1..=abs.len()).rev().find_map(|k| by_module.get(&abs[..k]));
            if let Some(t) = target {
                if t != rel {
                    to.insert(t.clone());
                }
            }
        }
        out.insert(rel.clone(), to);
    }
    out
}

/// One cycle of the graph, if it has one.
fn find_cycle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        mark: &mut BTreeMap<String, Mark>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        mark.insert(n.to_string(), Mark::Open);
        stack.push(n.to_string());
        for m in g.get(n).into_iter().flatten() {
            match mark.get(m).copied().unwrap_or(Mark::New) {
                Mark::Open => {
                    let from = stack.iter().position(|s| s == m).unwrap_or(0);
                    let mut c = stack[from..].to_vec();
                    c.push(m.clone());
                    return Some(c);
                }
                Mark::New => {
                    if let Some(c) = visit(m, g, mark, stack) {
                        return Some(c);
                    }
                }
                Mark::Done => {}
            }
        }
        stack.pop();
        mark.insert(n.to_string(), Mark::Done);
        None
    }
    let mut mark = BTreeMap::new();
    for n in g.keys() {
        if mark.get(n).copied().unwrap_or(Mark::New) == Mark::New {
            if let Some(c) = visit(n, g, &mut mark, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn no_source_file_imports_itself_through_others() {
    let g = edges(&modules());
    assert!(g.len() > 50, "found only {} source files", g.len());
    // The edges are really read: a few that must be there.
    for (from, to) in [
        ("cli.rs", "commands/run.rs"),
        ("commands/run.rs", "run_request.rs"),
        ("bisect/mod.rs", "bisect/flags_run.rs"),
        ("bisect/oracle.rs", "bisect/judge.rs"),
        ("compare/options.rs", "config.rs"),
    ] {
        assert!(g[from].contains(to), "{from} -> {to} not seen: {:?}", g[from]);
    }
    if let Some(c) = find_cycle(&g) {
        panic!("import cycle: {}", c.join(" -> "));
    }
}

#[test]
fn the_domain_never_imports_the_command_line() {
    let g = edges(&modules());
    for (file, to) in &g {
        if file.starts_with("commands/") || file == "cli.rs" || file == "lib.rs" {
            continue;
        }
        let cli: Vec<&String> = to
            .iter()
            .filter(|t| t.starts_with("commands/") || *t == "cli.rs")
            .collect();
        assert!(cli.is_empty(), "{file} imports the command line: {cli:?}");
    }
}

#[test]
fn the_checker_sees_a_cycle() {
    let g: BTreeMap<String, BTreeSet<String>> = [
        ("a.rs", vec!["b/mod.rs"]),
        ("b/mod.rs", vec!["b/c.rs"]),
        ("b/c.rs", vec!["a.rs"]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(find_cycle(&g).map(|c| c.len()), Some(4));
    let toks = tokens("use crate::x::{self, y::{Z, W as V}}; fn f() { super::q::r(); }");
    let ps = paths(&toks);
    assert!(
        ps.contains(&vec!["crate".into(), "x".into(), "y".into(), "Z".into()]),
        "{ps:?}"
    );
    assert!(ps.contains(&vec!["crate".into(), "x".into()]), "{ps:?}");
    assert!(ps.contains(&vec!["super".into(), "q".into(), "r".into()]), "{ps:?}");
}
