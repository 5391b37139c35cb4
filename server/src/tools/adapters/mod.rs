//! Bots that are not built-in strategies: external programs speaking the contest line
//! protocol (`exec:CMD`) and heartless-style scripts (`script:PATH`), plus the parsing of a
//! bot spec as `parlor arena --bots` takes it.
//!
//! Adapters are tools: no module of the server imports them.

pub mod exec;
pub mod heartless;
pub mod line;
pub mod script;

use std::time::Duration;

use anyhow::{Context, bail};
use parlor_shared::arena::Seated;
use parlor_shared::bots::strategy_names;
use parlor_shared::{Seat, Variant};

/// Checks a bot spec before any match starts, so a typo fails fast.
pub fn check_spec(spec: &str, variant: Variant) -> anyhow::Result<()> {
    if let Some(cmd) = spec.strip_prefix("exec:") {
        if exec::split_command(cmd).is_none() {
            bail!("exec:{cmd}: no command, or unbalanced quotes");
        }
        return Ok(());
    }
    if spec.starts_with("script:") {
        if variant.players() != 4 {
            bail!("heartless scripts play four-seat variants only");
        }
        return Ok(());
    }
    if parlor_shared::bots::strategy(spec, variant, 0).is_none() {
        bail!(
            "unknown bot {spec:?} for {variant}: use one of {:?}, exec:CMD or script:PATH",
            strategy_names(variant)
        );
    }
    Ok(())
}

/// The seat occupant for a spec: a strategy name, `exec:CMD` or `script:PATH`.
pub fn seated(
    spec: &str,
    variant: Variant,
    seat: Seat,
    seed: u64,
    move_ms: u64,
) -> anyhow::Result<Seated> {
    if let Some(cmd) = spec.strip_prefix("exec:") {
        let argv = exec::split_command(cmd)
            .with_context(|| format!("exec:{cmd}: no command, or unbalanced quotes"))?;
        let bot = exec::ExecBot::new(
            argv,
            variant,
            variant.players(),
            seat,
            Duration::from_millis(move_ms),
        )
        .with_context(|| format!("starting {cmd:?}"))?;
        return Ok(Seated::Player(Box::new(bot)));
    }
    if let Some(path) = spec.strip_prefix("script:") {
        let bot = script::ScriptBot::new(path, Duration::from_millis(move_ms));
        return Ok(Seated::Player(Box::new(bot)));
    }
    match Seated::builtin(spec, variant, seed) {
        Some(s) => Ok(s),
        None => bail!("unknown bot {spec:?}"),
    }
}
