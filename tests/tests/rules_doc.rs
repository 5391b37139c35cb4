//! `docs/RULES.md` against the engine: every number in its "at a glance" tables and Filippa's
//! penalty table must be what the game itself uses, so the document cannot drift from the rules.

use std::collections::BTreeMap;

use parlor_shared::rules::filippa;
use parlor_shared::{Card, Variant};
use serde_json::Value;

const RULES: &str = include_str!("../../docs/RULES.md");

/// The rows `| \`key\` | value |` of each variant's section, by variant name.
fn sections() -> BTreeMap<String, Vec<(String, String)>> {
    let mut sections = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in RULES.lines() {
        if let Some(heading) = line.strip_prefix("## `") {
            let name = heading.split('`').next().unwrap_or_default().to_string();
            current = Some(name.clone());
            sections.insert(name, Vec::new());
        } else if line.starts_with("## ") {
            current = None;
        } else if let (Some(name), Some(row)) = (&current, line.strip_prefix("| `")) {
            let mut cells = row.split('|').map(str::trim);
            let key = cells.next().unwrap_or_default().trim_end_matches('`');
            let value = cells.next().unwrap_or_default();
            sections
                .get_mut(name)
                .expect("section")
                .push((key.to_string(), value.to_string()));
        }
    }
    sections
}

/// What the engine says `key` is for `variant` (the seat count, an option default or a fact;
/// an option before a fact of the same name, as Oh Hell's `scoring`).
fn engine_value(variant: Variant, key: &str) -> Option<String> {
    let facts = serde_json::to_value(variant.facts()).expect("facts serialize");
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if key == "players" {
        return Some(variant.players().to_string());
    }
    let option = variant
        .option_specs()
        .into_iter()
        .find(|spec| spec.name == key)
        .map(|spec| text(&spec.default));
    option.or_else(|| facts.get(key).map(text))
}

#[test]
fn every_variant_has_a_section_with_its_numbers() {
    let sections = sections();
    for variant in Variant::ALL {
        let rows = sections
            .get(variant.name())
            .unwrap_or_else(|| panic!("docs/RULES.md has no section for `{variant}`"));
        for must in ["players", "hand_size", "pass_count"] {
            assert!(
                rows.iter().any(|(key, _)| key == must),
                "the `{variant}` section does not give `{must}`"
            );
        }
        for spec in variant.option_specs() {
            assert!(
                rows.iter().any(|(key, _)| key == spec.name),
                "the `{variant}` section does not give the default of option `{}`",
                spec.name
            );
        }
    }
}

#[test]
fn the_numbers_in_the_rules_document_are_the_engines() {
    let mut checked = 0;
    for (name, rows) in sections() {
        let variant: Variant = name.parse().expect("a section names a variant");
        for (key, value) in rows {
            if let Ok(card) = key.parse::<Card>() {
                assert_eq!(
                    variant,
                    Variant::Filippa,
                    "card rows are Filippa's penalties"
                );
                let penalty: i32 = value.parse().expect("a penalty is a number");
                assert_eq!(penalty, filippa::penalty(card), "{card} in docs/RULES.md");
            } else {
                let engine = engine_value(variant, &key)
                    .unwrap_or_else(|| panic!("`{key}` in the `{variant}` section is unknown"));
                assert_eq!(value, engine, "`{key}` of `{variant}` in docs/RULES.md");
            }
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} values were found to check");
}

#[test]
fn filippas_penalties_add_up_as_the_document_says() {
    let total: i32 = (0..52).map(|i| filippa::penalty(Card::from_index(i))).sum();
    assert_eq!(total, -36);
    assert!(RULES.contains("add up\nto -36"));
}
