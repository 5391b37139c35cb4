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
use std::time::Instant;

use anyhow::{Context, bail};

use super::{BenchArgs, play_random_hands};
use crate::tools::adapters::exec::split_command;

/// One round's two rates, in hands per second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Round {
    /// Parlor's engine.
    pub parlor: f64,
    /// The other program, as it printed it.
    pub versus: f64,
}

impl Round {
    /// Parlor's rate over the other's.
    #[must_use]
    pub fn ratio(self) -> f64 {
        self.parlor / self.versus
    }
}

/// Runs the rounds, printing each, then the median ratio.
pub fn run(args: &BenchArgs, command: &str) -> anyhow::Result<()> {
    let rounds = compare(args, command, |n, round| {
        println!(
            "round {n}: parlor {:.0} hands/s, versus {:.0}, ratio {:.3}",
            round.parlor,
            round.versus,
            round.ratio()
        );
    })?;
    let mut ratios: Vec<f64> = rounds.iter().map(|round| round.ratio()).collect();
    ratios.sort_by(f64::total_cmp);
    println!(
        "versus: hands/s ratio: median {:.3} (range {:.3}-{:.3}) over {} rounds",
        median(&ratios),
        ratios[0],
        ratios[ratios.len() - 1],
        ratios.len()
    );
    Ok(())
}

/// Measures `args.rounds` rounds (at least one), handing each to `each` as it ends.
pub fn compare(
    args: &BenchArgs,
    command: &str,
    mut each: impl FnMut(usize, Round),
) -> anyhow::Result<Vec<Round>> {
    let argv = split_command(command)
        .with_context(|| format!("--versus: no command in {command:?} (unbalanced quotes?)"))?;
    let mut rounds = Vec::new();
    for n in 1..=args.rounds.max(1) {
        let round = if n % 2 == 1 {
            let versus = versus_rate(&argv, &args.versus_key)?;
            Round {
                parlor: parlor_rate(args),
                versus,
            }
        } else {
            let parlor = parlor_rate(args);
            Round {
                parlor,
                versus: versus_rate(&argv, &args.versus_key)?,
            }
        };
        each(n, round);
        rounds.push(round);
    }
    Ok(rounds)
}

/// Parlor's hands per second over `args.hands` random hands.
fn parlor_rate(args: &BenchArgs) -> f64 {
    let start = Instant::now();
    let played = play_random_hands(args.variant, args.hands, args.seed);
    played as f64 / start.elapsed().as_secs_f64()
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
pub fn figure_in(output: &str, key: &str) -> Option<f64> {
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

/// The median of sorted, non-empty `values`.
fn median(values: &[f64]) -> f64 {
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::Variant;

    fn args(rounds: usize, key: &str) -> BenchArgs {
        BenchArgs {
            variant: Variant::Hearts,
            hands: 200,
            seed: 1,
            versus: None,
            versus_key: key.into(),
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
        let rounds = compare(
            &args(3, "hands_per_sec"),
            "echo hands_per_sec=1000",
            |n, r| {
                seen.push((n, r));
            },
        )
        .unwrap();
        assert_eq!(rounds.len(), 3);
        assert_eq!(seen.iter().map(|(n, _)| *n).collect::<Vec<_>>(), [1, 2, 3]);
        for round in &rounds {
            assert_eq!(round.versus, 1000.0);
            assert!(round.parlor > 0.0);
            assert!((round.ratio() - round.parlor / 1000.0).abs() < 1e-9);
        }
    }

    #[test]
    fn a_command_that_fails_or_prints_no_rate_is_an_error() {
        let failed = compare(&args(1, "hands_per_sec"), "false", |_, _| {}).unwrap_err();
        assert!(failed.to_string().contains("failed"), "{failed}");
        let silent = compare(&args(1, "hands_per_sec"), "echo rate=5", |_, _| {}).unwrap_err();
        assert!(silent.to_string().contains("hands_per_sec"), "{silent}");
        let zero = compare(&args(1, "rate"), "echo rate=0", |_, _| {}).unwrap_err();
        assert!(zero.to_string().contains("not a rate"), "{zero}");
        let missing = compare(&args(1, "rate"), "/no/such/program", |_, _| {}).unwrap_err();
        assert!(missing.to_string().contains("running"), "{missing}");
        let unbalanced = compare(&args(1, "rate"), "echo 'open", |_, _| {}).unwrap_err();
        assert!(
            unbalanced.to_string().contains("no command"),
            "{unbalanced}"
        );
    }

    #[test]
    fn the_median_of_odd_and_even_counts() {
        assert_eq!(median(&[1.0, 2.0, 9.0]), 2.0);
        assert_eq!(median(&[1.0, 2.0, 4.0, 9.0]), 3.0);
    }
}
