//! `parlor bench --versus COMMAND`: the engine's speed as a ratio to another program's, both
//! measured in the same run.
//!
//! On a shared machine the speed of one binary drifts by a third within minutes, so a ratio
//! means something only when both figures come from the same minute. The two are run in turns,
//! round after round: the other program first in odd rounds, Parlor first in even ones, so a
//! drift within a round weighs on both sides alike. Each round prints its ratio, and the last
//! line gives their median and range.
//!
//! The other program is any command that prints its rate as `KEY=NUMBER` or `KEY: NUMBER`
//! (`--versus-key`, `hands_per_sec` by default). It is run without a shell, its words split as
//! a shell would split them. Pin both to one core by running `parlor bench` under `taskset`:
//! the command inherits the pinning.

use std::process::Command;

use anyhow::{Context, bail};

use crate::tools::adapters::exec::split_command;
use crate::tools::spread::Spread;

/// What to compare with, and how many times.
#[derive(Debug, Clone, Copy)]
pub struct Versus<'a> {
    /// The other program's command line.
    pub command: &'a str,
    /// The name of the rate it prints.
    pub key: &'a str,
    /// How many rounds (at least one is run).
    pub rounds: usize,
}

/// One round's two rates, in hands per second.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Round {
    /// Parlor's engine.
    parlor: f64,
    /// The other program, as it printed it.
    versus: f64,
}

impl Round {
    /// Parlor's rate over the other's.
    #[must_use]
    fn ratio(self) -> f64 {
        self.parlor / self.versus
    }
}

/// Runs the rounds, `parlor_rate` measuring Parlor's side of each, printing each round, then
/// the median ratio.
pub fn run(versus: Versus<'_>, parlor_rate: impl FnMut() -> f64) -> anyhow::Result<()> {
    let rounds = compare(versus, parlor_rate, |n, round| {
        println!(
            "round {n}: parlor {:.0} hands/s, versus {:.0}, ratio {:.3}",
            round.parlor,
            round.versus,
            round.ratio()
        );
    })?;
    let ratios: Vec<f64> = rounds.iter().map(|round| round.ratio()).collect();
    let spread = Spread::of(&ratios).context("no rounds to compare")?;
    println!(
        "versus: hands/s ratio: median {:.3} (range {:.3}-{:.3}) over {} rounds",
        spread.median,
        spread.low,
        spread.high,
        ratios.len()
    );
    Ok(())
}

/// Measures the rounds, handing each to `each` as it ends.
fn compare(
    versus: Versus<'_>,
    mut parlor_rate: impl FnMut() -> f64,
    mut each: impl FnMut(usize, Round),
) -> anyhow::Result<Vec<Round>> {
    let Versus {
        command,
        key,
        rounds: count,
    } = versus;
    let argv = split_command(command)
        .with_context(|| format!("--versus: no command in {command:?} (unbalanced quotes?)"))?;
    let mut rounds = Vec::new();
    for n in 1..=count.max(1) {
        let round = if n % 2 == 1 {
            let versus = versus_rate(&argv, key)?;
            Round {
                parlor: parlor_rate(),
                versus,
            }
        } else {
            let parlor = parlor_rate();
            Round {
                parlor,
                versus: versus_rate(&argv, key)?,
            }
        };
        each(n, round);
        rounds.push(round);
    }
    Ok(rounds)
}

/// Runs the other program once and reads its rate.
fn versus_rate(argv: &[String], key: &str) -> anyhow::Result<f64> {
    let output = Command::new(&argv[0])
        .args(&argv[1..])
        .output()
        .with_context(|| format!("--versus: running {:?}", argv[0]))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        bail!(
            "--versus: {:?} failed ({}): {}",
            argv[0],
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    match figure_in(&stdout, key) {
        Some(rate) if rate > 0.0 && rate.is_finite() => Ok(rate),
        Some(rate) => bail!("--versus: {:?} printed {key} = {rate}, not a rate", argv[0]),
        None => bail!(
            "--versus: {:?} printed no `{key}=NUMBER` or `{key}: NUMBER` (set --versus-key): {}",
            argv[0],
            stdout.trim()
        ),
    }
}

/// The number printed after `key` as `key=NUMBER` or `key: NUMBER`, the first time it is; the
/// key must stand as a word of its own (`hands` is not read out of `hands_per_sec=`).
#[must_use]
fn figure_in(output: &str, key: &str) -> Option<f64> {
    if key.is_empty() {
        return None;
    }
    let part_of_word = |c: char| c.is_alphanumeric() || c == '_';
    for (at, _) in output.match_indices(key) {
        if output[..at].chars().next_back().is_some_and(part_of_word) {
            continue;
        }
        let rest = output[at + key.len()..].trim_start_matches(' ');
        let Some(rest) = rest.strip_prefix(['=', ':']) else {
            continue;
        };
        let rest = rest.trim_start_matches(' ');
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E')))
            .unwrap_or(rest.len());
        if let Ok(number) = rest[..end].parse() {
            return Some(number);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn versus<'a>(command: &'a str, key: &'a str, rounds: usize) -> Versus<'a> {
        Versus {
            command,
            key,
            rounds,
        }
    }

    #[test]
    fn a_figure_is_read_after_its_own_key_only() {
        let line = "mode=bitmask hands=200000 secs=0.146 hands_per_sec=1372059 ns_per_hand=728.8";
        assert_eq!(figure_in(line, "hands_per_sec"), Some(1_372_059.0));
        assert_eq!(figure_in(line, "hands"), Some(200_000.0));
        assert_eq!(figure_in(line, "ns_per_hand"), Some(728.8));
        // Inside another word, or without its separator, a key is not the key.
        assert_eq!(figure_in(line, "per_sec"), None);
        assert_eq!(figure_in(line, "sec"), None);
        assert_eq!(figure_in(line, "mode"), None, "not a number");
        assert_eq!(
            figure_in("hearts: 812345 hands/s", "hearts"),
            Some(812_345.0)
        );
        assert_eq!(figure_in("rate = 2.5e6\n", "rate"), Some(2.5e6));
        assert_eq!(figure_in("anything", ""), None);
    }

    #[test]
    fn each_round_compares_with_what_the_command_printed() {
        let mut seen = Vec::new();
        let mut parlor = [400.0, 500.0, 700.0].into_iter();
        let rounds = compare(
            versus("echo hands_per_sec=1000", "hands_per_sec", 3),
            || parlor.next().expect("one measure a round"),
            |n, round| seen.push((n, round.ratio())),
        )
        .unwrap();
        assert_eq!(seen, [(1, 0.4), (2, 0.5), (3, 0.7)]);
        assert!(rounds.iter().all(|round| round.versus == 1000.0));
    }

    #[test]
    fn a_command_that_fails_or_prints_no_rate_is_an_error() {
        let error = |command, key| {
            compare(versus(command, key, 1), || 1.0, |_, _| {})
                .unwrap_err()
                .to_string()
        };
        assert!(error("false", "rate").contains("failed"));
        assert!(error("echo rate=5", "hands_per_sec").contains("hands_per_sec"));
        assert!(error("echo rate=0", "rate").contains("not a rate"));
        assert!(error("/no/such/program", "rate").contains("running"));
        assert!(error("echo 'open", "rate").contains("no command"));
    }
}
