//! The server's modules depend on one another in one direction only:
//!
//! ```text
//! tools -> http -> {ws, ladder} -> cluster -> lobby -> table -> {conn, ratings, store}
//! ratings -> store
//! ```
//!
//! and `digest`, `skeleton` and `tally` sit below them all, importing nothing of the server.
//! This reads the top-level modules from `server/src` and fails when one is missing from
//! [`ALLOWED`] (a new module must take its place in the layers), or when a source file names
//! (`crate::...`) a module its own may not import, so an import cycle cannot come back unnoticed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Modules every other may import: they import nothing of the server themselves.
const LEAVES: &[&str] = &["digest", "skeleton", "tally"];

/// Each top-level module and the modules of the server it may import (besides [`LEAVES`]).
const ALLOWED: &[(&str, &[&str])] = &[
    ("digest", &[]),
    ("skeleton", &[]),
    ("tally", &[]),
    ("conn", &[]),
    ("store", &[]),
    ("ratings", &["store"]),
    ("table", &["conn", "store", "ratings"]),
    ("lobby", &["table", "conn", "store", "ratings"]),
    ("cluster", &["lobby", "table", "conn", "store", "ratings"]),
    (
        "ladder",
        &["cluster", "lobby", "table", "conn", "store", "ratings"],
    ),
    (
        "ws",
        &["cluster", "lobby", "table", "conn", "store", "ratings"],
    ),
    (
        "http",
        &[
            "ws", "ladder", "cluster", "lobby", "table", "conn", "store", "ratings",
        ],
    ),
    (
        "tools",
        &[
            "http", "ws", "ladder", "cluster", "lobby", "table", "conn", "store", "ratings",
        ],
    ),
];

/// The files that sit above every module: the crate's root and the binary.
const ROOTS: &[&str] = &["lib", "main"];

/// One source file: the top-level module it belongs to, its path under `src` and its text.
struct Source {
    module: String,
    path: String,
    text: String,
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable source directory") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules `source` names through `crate::`, including grouped imports such
/// as `crate::{conn::Conn, store}`.
fn crate_modules(source: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = source;
    while let Some(at) = rest.find("crate::") {
        // `parlor_crate::` or `my_crate::` are other paths.
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0usize;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        found.extend(first_segment(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
            found.extend(first_segment(&item));
        } else {
            found.extend(first_segment(rest));
        }
    }
    found
}

/// The first path segment of `path`, if it is a module name.
fn first_segment(path: &str) -> Option<String> {
    let name: String = path
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty() && name != "self").then_some(name)
}

#[test]
fn the_parser_finds_plain_and_grouped_imports() {
    let source = "use crate::conn::{Conn, bounded};\nuse crate::{store, table::{TableMsg, X}};\n\
                  let x = crate::lobby::Lobby::new(); // parlor_crate::http is not ours";
    let found: Vec<String> = crate_modules(source).into_iter().collect();
    assert_eq!(found, ["conn", "lobby", "store", "table"]);
}

/// The top-level modules of the tree at `src`: each `NAME.rs` and each directory `NAME/`,
/// the roots left out.
fn tree_modules(src: &Path) -> BTreeSet<String> {
    std::fs::read_dir(src)
        .expect("a readable source directory")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.is_dir() || path.extension().is_some_and(|e| e == "rs"))
        .filter_map(|path| Some(path.file_stem()?.to_str()?.to_string()))
        .filter(|name| !ROOTS.contains(&name.as_str()))
        .collect()
}

/// Every source file under `src`, with its module.
fn sources(src: &Path) -> Vec<Source> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files
        .iter()
        .map(|file| {
            let relative = file.strip_prefix(src).expect("under src");
            let module = relative
                .components()
                .next()
                .and_then(|c| c.as_os_str().to_str())
                .map(|name| name.trim_end_matches(".rs").to_string())
                .expect("a file name");
            Source {
                module,
                path: relative.display().to_string(),
                text: std::fs::read_to_string(file).expect("a readable source file"),
            }
        })
        .collect()
}

/// Every way `modules` and `files` break the layering `allowed`: a module the table does not
/// place, a module the table names that the tree lacks, an import a module may not make.
fn breaches(
    allowed: &[(&str, &[&str])],
    modules: &BTreeSet<String>,
    files: &[Source],
) -> Vec<String> {
    let mut found = Vec::new();
    for module in modules {
        if !allowed.iter().any(|(name, _)| name == module) {
            found.push(format!(
                "module {module} is not placed in the layers (ALLOWED)"
            ));
        }
    }
    for (name, _) in allowed {
        if !modules.contains(*name) {
            found.push(format!(
                "ALLOWED names {name}, which server/src does not have"
            ));
        }
    }
    for file in files {
        if ROOTS.contains(&file.module.as_str()) {
            continue;
        }
        let may = allowed
            .iter()
            .find(|(name, _)| *name == file.module)
            .map_or(&[][..], |(_, may)| *may);
        let leaf = LEAVES.contains(&file.module.as_str());
        for used in crate_modules(&file.text) {
            let permitted = used == file.module
                || may.contains(&used.as_str())
                || (!leaf && LEAVES.contains(&used.as_str()));
            if modules.contains(&used) && !permitted {
                found.push(format!("{} imports crate::{used}", file.path));
            }
        }
    }
    found
}

/// The modules of the real table.
fn known_modules() -> BTreeSet<String> {
    ALLOWED.iter().map(|(name, _)| name.to_string()).collect()
}

/// A synthetic source file of `module`.
fn source(module: &str, text: &str) -> Source {
    Source {
        module: module.to_string(),
        path: format!("{module}/fake.rs"),
        text: text.to_string(),
    }
}

#[test]
fn dependencies_point_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules = tree_modules(&src);
    for expected in ["ladder", "ratings", "tally", "table", "tools"] {
        assert!(modules.contains(expected), "{expected} in {modules:?}");
    }
    let files = sources(&src);
    assert!(
        files.len() > 20,
        "the sources were found in {}",
        src.display()
    );
    let found = breaches(ALLOWED, &modules, &files);
    assert!(
        found.is_empty(),
        "against the layering tools -> http -> {{ws, ladder}} -> cluster -> lobby -> table -> \
         {{conn, ratings, store}}, ratings -> store (leaves: {LEAVES:?}):\n{}",
        found.join("\n")
    );
}

#[test]
fn an_import_reaching_up_is_a_breach() {
    let files = [
        source("store", "use crate::table::TableHandle;"),
        source("ladder", "use crate::{lobby::Lobby, http::AppState};"),
        source("tally", "use crate::conn::Conn;"),
        source(
            "conn",
            "use crate::tally::Tally; use crate::digest::of_secret;",
        ),
    ];
    let found = breaches(ALLOWED, &known_modules(), &files);
    assert_eq!(
        found,
        [
            "store/fake.rs imports crate::table",
            "ladder/fake.rs imports crate::http",
            "tally/fake.rs imports crate::conn",
        ]
    );
}

#[test]
fn a_module_the_layers_do_not_place_is_a_breach() {
    let mut modules = known_modules();
    modules.insert("gadgets".to_string());
    let files = [source("gadgets", "use crate::http::AppState;")];
    let found = breaches(ALLOWED, &modules, &files);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].contains("module gadgets is not placed"),
        "{found:?}"
    );
    assert_eq!(found[1], "gadgets/fake.rs imports crate::http");

    modules.remove("gadgets");
    modules.remove("tally");
    let found = breaches(ALLOWED, &modules, &[]);
    assert_eq!(
        found,
        ["ALLOWED names tally, which server/src does not have"]
    );
}
