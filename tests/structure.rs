//! The module structure of the prover and the harness has no import cycle:
//! each file's `crate::`, `super::` and `self::` paths are resolved to the
//! module file they name, and the graph of files must be acyclic. A module
//! file's edges to its own submodules (declaring and re-exporting them) do not
//! count: that is the parent's job, not a dependency (so a cycle that closes
//! only through such an edge goes unseen; a path to an item a folder module
//! re-exports resolves to that folder module). Comments are left out; paths
//! inside string literals are not told apart. Run it alone with
//! `cargo test --test structure`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module path (`["bisect", "flags"]`) -> file, for the library under `src`.
fn modules(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("source folder") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "bin") {
                    walk(&p, out);
                }
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(src, &mut files);
    let mut out = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(src).expect("under src").with_extension("");
        let mut path: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
        match path.last().map(String::as_str) {
            Some("main") if path.len() == 1 => continue,
            Some("lib") if path.len() == 1 => path.clear(),
            Some("mod") => {
                path.pop();
            }
            _ => {}
        }
        out.insert(path, f);
    }
    out
}

/// The module a file is (`mod.rs` and `lib.rs` are their folder's module).
fn is_folder_module(f: &Path) -> bool {
    f.file_name().is_some_and(|n| n == "mod.rs" || n == "lib.rs")
}

/// Paths named after `crate::`, `super::` or `self::` in `text` (comments left out), as segments
/// relative to the crate root; brace groups (`crate::{a, b::c}`) give one path each.
fn paths(text: &str, me: &[String], folder_module: bool) -> Vec<Vec<String>> {
    let code: String = text
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n");
    // The module `super` and `self` start from.
    let here: Vec<String> = me.to_vec();
    let parent: Vec<String> = if folder_module || me.is_empty() {
        me[..me.len().saturating_sub(1)].to_vec()
    } else {
        me[..me.len() - 1].to_vec()
    };
    let self_mod: Vec<String> = if folder_module { here.clone() } else { parent.clone() };
    let super_mod: Vec<String> = self_mod[..self_mod.len().saturating_sub(1)].to_vec();
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let ident = |i: usize| i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_');
    for (start, base) in [("crate::", Vec::new()), ("super::", super_mod), ("self::", self_mod)] {
        let mut from = 0;
        while let Some(k) = code[from..].find(start) {
            let at = from + k;
            from = at + start.len();
            if at > 0 && (ident(at - 1) || bytes[at - 1] == b':') {
                continue;
            }
            let mut i = from;
            let mut segs = base.clone();
            // `super::super::`
            while code[i..].starts_with("super::") {
                segs.pop();
                i += "super::".len();
            }
            if code[i..].starts_with('{') {
                let end = code[i..].find('}').map(|e| i + e).unwrap_or(code.len());
                for item in code[i + 1..end].split(',') {
                    let first: Vec<String> = item
                        .trim()
                        .split("::")
                        .take_while(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
                        .map(String::from)
                        .collect();
                    let mut p = segs.clone();
                    p.extend(first);
                    out.push(p);
                }
                continue;
            }
            loop {
                let s = i;
                while ident(i) {
                    i += 1;
                }
                if i == s {
                    break;
                }
                segs.push(code[s..i].to_string());
                if code[i..].starts_with("::") {
                    i += 2;
                } else {
                    break;
                }
            }
            out.push(segs);
        }
    }
    out
}

/// The deepest module file a path names.
fn resolve<'a>(mods: &'a BTreeMap<Vec<String>, PathBuf>, p: &[String]) -> Option<&'a PathBuf> {
    (0..=p.len()).rev().find_map(|n| mods.get(&p[..n]))
}

/// Strongly connected components of more than one file (Tarjan).
fn cycles(edges: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct T<'a> {
        edges: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a PathBuf, usize>,
        low: BTreeMap<&'a PathBuf, usize>,
        stack: Vec<&'a PathBuf>,
        on: BTreeSet<&'a PathBuf>,
        out: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a PathBuf) {
        let n = t.index.len();
        t.index.insert(v, n);
        t.low.insert(v, n);
        t.stack.push(v);
        t.on.insert(v);
        for w in t.edges.get(v).into_iter().flatten() {
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                comp.push(w.clone());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v) {
            visit(&mut t, v);
        }
    }
    t.out
}

/// The file graph of the library under `src`.
fn graph(src: &Path) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let mods = modules(src);
    let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for (me, file) in &mods {
        let text = std::fs::read_to_string(file).expect("source file");
        let set = edges.entry(file.clone()).or_default();
        for p in paths(&text, me, is_folder_module(file)) {
            let Some(target) = resolve(&mods, &p) else { continue };
            // A folder module's own submodules are its to declare and re-export.
            let own_child = is_folder_module(file) && p.len() > me.len() && p.starts_with(me);
            if target != file && !own_child {
                set.insert(target.clone());
            }
        }
    }
    edges
}

fn check(src: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(src);
    let g = graph(&root);
    assert!(g.len() > 10, "{src}: only {} module files found", g.len());
    let found = cycles(&g);
    let names: Vec<String> = found
        .iter()
        .map(|c| {
            c.iter()
                .map(|p| p.strip_prefix(&root).unwrap_or(p).display().to_string())
                .collect::<Vec<_>>()
                .join(" <-> ")
        })
        .collect();
    assert!(found.is_empty(), "import cycles in {src}:\n{}", names.join("\n"));
}

#[test]
fn the_cycle_finder_finds_a_planted_cycle() {
    let dir = std::env::temp_dir().join(format!("phaseline-structure-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("a")).unwrap();
    std::fs::write(dir.join("lib.rs"), "mod a;\nmod b;\nmod c;\nmod d;\nmod e;\nmod f;\nmod g;\nmod h;\nmod i;\nmod j;\n").unwrap();
    std::fs::write(dir.join("a/mod.rs"), "pub mod x;\npub use x::X;\nuse crate::b::B;\n").unwrap();
    std::fs::write(dir.join("a/x.rs"), "use super::super::c::{self, C};\n").unwrap();
    std::fs::write(dir.join("b.rs"), "// use crate::a;\npub struct B;\n").unwrap();
    std::fs::write(dir.join("c.rs"), "fn f() { crate::a::x::g(); }\n").unwrap();
    for m in ["d", "e", "f", "g", "h", "i", "j"] {
        std::fs::write(dir.join(format!("{m}.rs")), "").unwrap();
    }
    let g = graph(&dir);
    let found = cycles(&g);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    let names: Vec<String> = found[0].iter().map(|p| p.file_name().unwrap().to_string_lossy().into()).collect();
    assert_eq!(names, ["x.rs", "c.rs"], "a/mod.rs re-exporting its child is no cycle; b.rs's comment is no import");
}

#[test]
fn the_prover_has_no_import_cycle() {
    check("prover");
}

#[test]
fn the_harness_has_no_import_cycle() {
    check("harness/src");
}
