//! No import cycle among the prover's or the harness's modules, at file level.
//!
//! Every `.rs` file under `prover/` or `harness/src/` (but `bin/` and a
//! top-level `main.rs`, crates of their own) is a node; a file depends on another when its non-test code names a path into
//! it: `crate::a::b`, `super::x`, `self::x`, or a child module's name. A
//! path resolves to the deepest file it reaches, and an item a directory's
//! `mod.rs` (or `lib.rs`) only re-exports (`pub use child::Item`) resolves to
//! the file that defines it, while the `pub use` itself makes the facade
//! depend on that file. Comments and `#[cfg(test)]` modules are skipped.
//!
//! Run with `cargo test -p phaseline-prover --test module_cycles`; set
//! `MODULE_CYCLES_ROOT` to another source tree (a checkout's `prover/`) to
//! check that one instead of the prover.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

type ModPath = Vec<String>;

/// One file: its module path and its code without comments or test modules.
struct File {
    rel: String,
    module: ModPath,
    /// Whether its children live in a directory under it (`mod.rs`, `lib.rs`).
    dir_owner: bool,
    code: String,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "bin") {
                rust_files(&p, out);
            }
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The code with comments, string and char literals blanked (newlines kept).
fn strip_comments(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < c.len() {
        if c[i] == '/' && c.get(i + 1).copied() == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && c.get(i + 1).copied() == Some('*') {
            i += 2;
            while i < c.len() && !(c[i] == '*' && c.get(i + 1).copied() == Some('/')) {
                if c[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 2;
        } else if c[i] == 'r'
            && (c.get(i + 1).copied() == Some('"')
                || (c.get(i + 1).copied() == Some('#') && c.get(i + 2).copied() == Some('"')))
        {
            let hashes = if c.get(i + 1).copied() == Some('#') { 1 } else { 0 };
            i += 2 + hashes;
            while i < c.len() && !(c[i] == '"' && (hashes == 0 || c.get(i + 1).copied() == Some('#'))) {
                if c[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1 + hashes;
            out.push_str("\"\"");
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                if c.get(i) == Some(&'\n') {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c[i] == '\'' && c.get(i + 1).copied() == Some('\\') {
            i += 2;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else if c[i] == '\'' && c.get(i + 2).copied() == Some('\'') {
            i += 3;
            out.push_str("' '");
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The code without `#[cfg(test)] mod name { ... }` blocks.
fn strip_test_modules(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(i) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..i]);
        let after = &rest[i + "#[cfg(test)]".len()..];
        let trimmed = after.trim_start();
        if !trimmed.starts_with("mod ") {
            out.push_str("#[cfg(test)]");
            rest = after;
            continue;
        }
        // `#[cfg(test)] mod tests;`: a declaration of a test file, no body to skip.
        let open = match (after.find('{'), after.find(';')) {
            (Some(o), Some(semi)) if semi < o => {
                rest = &after[semi + 1..];
                continue;
            }
            (Some(o), _) => o,
            (None, _) => {
                rest = after;
                continue;
            }
        };
        let mut depth = 0usize;
        let mut end = after.len();
        for (k, c) in after[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

fn load(root: &Path) -> Vec<File> {
    let mut paths = Vec::new();
    rust_files(root, &mut paths);
    paths
        .into_iter()
        .filter(|p| p.strip_prefix(root).map(|r| r != Path::new("main.rs")).unwrap_or(true))
        .map(|p| {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            let mut module: ModPath = rel.trim_end_matches(".rs").split('/').map(String::from).collect();
            let last = module.last().cloned().unwrap_or_default();
            let dir_owner = last == "mod" || last == "lib";
            if dir_owner {
                module.pop();
            }
            let code = strip_test_modules(&strip_comments(&fs::read_to_string(&p).unwrap()));
            File {
                rel,
                module,
                dir_owner,
                code,
            }
        })
        .collect()
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths of a use tree starting at `s` (after its first `::`), expanded:
/// `a::{b, c::{d, self}}` gives `a::b`, `a::c::d`, `a::c`.
fn use_tree(s: &str, prefix: &ModPath, out: &mut Vec<ModPath>) -> usize {
    let b = s.as_bytes();
    let mut i = 0;
    let mut path = prefix.clone();
    loop {
        while i < b.len() && (b[i] as char).is_whitespace() {
            i += 1;
        }
        if i < b.len() && b[i] == b'{' {
            i += 1;
            loop {
                i += use_tree(&s[i..], &path, out);
                while i < b.len() && (b[i] as char).is_whitespace() {
                    i += 1;
                }
                match b.get(i) {
                    Some(b',') => i += 1,
                    Some(b'}') => return i + 1,
                    _ => return i,
                }
                while i < b.len() && (b[i] as char).is_whitespace() {
                    i += 1;
                }
                if b.get(i) == Some(&b'}') {
                    return i + 1;
                }
            }
        }
        let start = i;
        while i < b.len() && (is_ident(b[i] as char) || b[i] == b'*') {
            i += 1;
        }
        let seg = &s[start..i];
        if !seg.is_empty() && seg != "self" && seg != "*" {
            path.push(seg.to_string());
        }
        if s[i..].starts_with("::") {
            i += 2;
            continue;
        }
        out.push(path);
        return i;
    }
}

/// Every path the file names into the crate, as absolute module paths.
fn referenced(f: &File, children: &BTreeSet<String>) -> Vec<ModPath> {
    let own: ModPath = f.module.clone();
    let mut parent = own.clone();
    if !f.dir_owner {
        parent.pop();
    }
    // The module a non-`mod.rs` file is: `own`; its `super` is `parent`.
    let base_self = own.clone();
    let base_super = if f.dir_owner {
        let mut p = own.clone();
        p.pop();
        p
    } else {
        parent.clone()
    };
    let code = &f.code;
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let prev_ok = i == 0 || !(is_ident(bytes[i - 1] as char) || (i >= 2 && &code[i - 2..i] == "::"));
        if !prev_ok || !is_ident(bytes[i] as char) {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < bytes.len() && is_ident(bytes[j] as char) {
            j += 1;
        }
        let word = &code[i..j];
        if !code[j..].starts_with("::") {
            i = j;
            continue;
        }
        let mut base = match word {
            "crate" => Vec::new(),
            "self" => base_self.clone(),
            "super" => base_super.clone(),
            w if f.dir_owner && children.contains(w) => {
                let mut p = own.clone();
                p.push(w.to_string());
                p
            }
            _ => {
                i = j;
                continue;
            }
        };
        let mut k = j + 2;
        while code[k..].starts_with("super::") {
            base.pop();
            k += "super::".len();
        }
        let n = use_tree(&code[k..], &base, &mut out);
        i = k + n.max(1);
    }
    out
}

/// `pub use` re-exports of a facade file: exported name -> absolute path.
fn reexports(f: &File, children: &BTreeSet<String>) -> BTreeMap<String, ModPath> {
    let mut m = BTreeMap::new();
    for stmt in f.code.split(';') {
        let t = stmt.trim();
        let Some(rest) = t.strip_prefix("pub use ").or_else(|| t.strip_prefix("pub(crate) use ")) else {
            continue;
        };
        let first: String = rest.chars().take_while(|c| is_ident(*c)).collect();
        if !(matches!(first.as_str(), "crate" | "super" | "self") || children.contains(&first)) {
            continue;
        }
        let one = File {
            rel: String::new(),
            module: f.module.clone(),
            dir_owner: f.dir_owner,
            code: rest.to_string(),
        };
        for p in referenced(&one, children) {
            if let Some(name) = p.last() {
                m.insert(name.clone(), p.clone());
            }
        }
    }
    m
}

struct Graph {
    files: Vec<File>,
    by_module: BTreeMap<ModPath, usize>,
    reexports: Vec<BTreeMap<String, ModPath>>,
    children: Vec<BTreeSet<String>>,
}

impl Graph {
    fn new(root: &Path) -> Graph {
        let files = load(root);
        let by_module: BTreeMap<ModPath, usize> =
            files.iter().enumerate().map(|(i, f)| (f.module.clone(), i)).collect();
        let children: Vec<BTreeSet<String>> = files
            .iter()
            .map(|f| {
                by_module
                    .keys()
                    .filter(|m| m.len() == f.module.len() + 1 && m.starts_with(&f.module))
                    .map(|m| m.last().unwrap().clone())
                    .collect()
            })
            .collect();
        let reexports = files.iter().zip(&children).map(|(f, c)| reexports(f, c)).collect();
        Graph {
            files,
            by_module,
            reexports,
            children,
        }
    }

    /// The file defining what `path` names, following facades' re-exports.
    fn resolve(&self, path: &ModPath, depth: usize) -> Option<usize> {
        let n = (0..=path.len())
            .rev()
            .find(|n| self.by_module.contains_key(&path[..*n]))?;
        let file = self.by_module[&path[..n]];
        if depth < 8 && n < path.len() && self.files[file].dir_owner {
            if let Some(target) = self.reexports[file].get(&path[n]) {
                let mut t = target.clone();
                t.extend_from_slice(&path[n + 1..]);
                if t != *path {
                    return self.resolve(&t, depth + 1).or(Some(file));
                }
            }
        }
        Some(file)
    }

    fn edges(&self) -> Vec<BTreeMap<usize, ModPath>> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let mut e = BTreeMap::new();
                for p in referenced(f, &self.children[i]) {
                    if let Some(t) = self.resolve(&p, 0) {
                        if t != i {
                            e.entry(t).or_insert(p);
                        }
                    }
                }
                // A facade's `pub use` depends on the file it re-exports from.
                for p in self.reexports[i].values() {
                    if let Some(t) = self.resolve(p, 0) {
                        if t != i {
                            e.entry(t).or_insert(p.clone());
                        }
                    }
                }
                e
            })
            .collect()
    }
}

/// Strongly connected components with more than one file (Tarjan).
fn cycles(n: usize, edges: &[BTreeMap<usize, ModPath>]) -> Vec<Vec<usize>> {
    struct St<'a> {
        edges: &'a [BTreeMap<usize, ModPath>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut St<'_>, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on[v] = true;
        for &w in s.edges[v].keys() {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on[w] => s.low[v] = s.low[v].min(iw),
                _ => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.out.push(comp);
            }
        }
    }
    let mut s = St {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out
}

/// The prover's sources, or the tree `MODULE_CYCLES_ROOT` names (to check another revision).
fn graph() -> Graph {
    match std::env::var_os("MODULE_CYCLES_ROOT") {
        Some(root) => Graph::new(Path::new(&root)),
        None => Graph::new(&Path::new(env!("CARGO_MANIFEST_DIR")).join("prover")),
    }
}

/// Fails naming every edge of every cycle of `g` (a folder module's edges to its own
/// submodules count like any other: a trait or driver its children use belongs in a file of its own).
fn assert_acyclic(g: &Graph) {
    let edges = g.edges();
    let found = cycles(g.files.len(), &edges);
    let report: Vec<String> = found
        .iter()
        .map(|comp| {
            let mut lines = Vec::new();
            for &a in comp {
                for (&b, p) in &edges[a] {
                    if comp.contains(&b) {
                        lines.push(format!("  {} -> {} ({})", g.files[a].rel, g.files[b].rel, p.join("::")));
                    }
                }
            }
            lines.join("\n")
        })
        .collect();
    assert!(found.is_empty(), "import cycles:\n{}", report.join("\n\n"));
}

#[test]
fn no_import_cycle_among_prover_files() {
    let g = graph();
    assert!(g.files.len() > 40, "found only {} files", g.files.len());
    assert_acyclic(&g);
}

fn harness() -> Graph {
    Graph::new(&Path::new(env!("CARGO_MANIFEST_DIR")).join("harness/src"))
}

#[test]
fn no_import_cycle_among_harness_files() {
    let g = harness();
    assert!(g.files.len() > 80, "found only {} files", g.files.len());
    assert_acyclic(&g);
}

/// The harness's command line (`cli.rs`, `commands/`) uses the domain, never the other way round.
#[test]
fn the_harness_domain_never_imports_its_command_line() {
    let g = harness();
    let is_cli = |rel: &str| rel == "cli.rs" || rel.starts_with("commands/");
    for (a, out) in g.edges().iter().enumerate() {
        let from = &g.files[a].rel;
        if is_cli(from) || from == "lib.rs" {
            continue;
        }
        let cli: Vec<&str> = out
            .keys()
            .map(|&b| g.files[b].rel.as_str())
            .filter(|t| is_cli(t))
            .collect();
        assert!(cli.is_empty(), "{from} imports the command line: {cli:?}");
    }
}

#[test]
fn groth16_never_imports_setup_and_the_fixed_base_trait_no_engine() {
    let g = graph();
    let edges = g.edges();
    for (i, f) in g.files.iter().enumerate() {
        let deps: Vec<&str> = edges[i].keys().map(|&t| g.files[t].rel.as_str()).collect();
        if f.rel.starts_with("groth16/") {
            assert!(!deps.iter().any(|d| d.starts_with("setup/")), "{}: {deps:?}", f.rel);
        }
        if f.rel == "setup/fixed_base.rs" {
            assert!(
                !deps.contains(&"setup/gpu.rs") && !deps.contains(&"setup/cpu_fixed_base.rs"),
                "{deps:?}"
            );
        }
        // Only the prover choice names the CUDA engine; the driver, its trait,
        // `msm_prep` and the CPU engine know no GPU code.
        if (f.rel.starts_with("prove/") && f.rel != "prove/prover.rs") || f.rel.starts_with("cpu/") {
            assert!(!deps.iter().any(|d| d.starts_with("gpu/")), "{}: {deps:?}", f.rel);
        }
    }
}

#[test]
fn the_checker_sees_paths_groups_and_reexports() {
    let g = graph();
    let edges = g.edges();
    let idx = |rel: &str| g.files.iter().position(|f| f.rel == rel).unwrap();
    let deps = |rel: &str| -> Vec<&str> { edges[idx(rel)].keys().map(|&t| g.files[t].rel.as_str()).collect() };
    // `use super::{msm::{..}, ntt::Domain}`-style groups and `crate::` paths.
    assert!(deps("cpu/prove.rs").contains(&"cpu/msm.rs"));
    assert!(deps("cpu/prove.rs").contains(&"prove/driver.rs"));
    // `crate::synth::Synthesized` is `synth/mod.rs`'s re-export of `synth/engine.rs`.
    assert!(deps("prove/driver.rs").contains(&"synth/engine.rs"));
    assert!(!deps("prove/driver.rs").contains(&"synth/mod.rs"));
    // A facade depends on what it re-exports.
    assert!(deps("setup/mod.rs").contains(&"setup/generate.rs"));
    // A cycle is found when there is one.
    let mut with_cycle = edges.clone();
    let (a, b) = (idx("groth16/cache.rs"), idx("setup/runner.rs"));
    with_cycle[a].insert(b, vec![]);
    assert!(!cycles(g.files.len(), &with_cycle).is_empty());
}
