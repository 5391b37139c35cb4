//! `parlor-bench engine --versus COMMAND`: the engine's speed as a ratio to other programs', all
//! measured in the same run. A shared machine's speed drifts within minutes, so a ratio means
//! something only when both figures come from the same minute: the programs run in turns, the
//! others first in odd rounds and Parlor first in even ones (the others then in reverse), so a
//! drift weighs on all alike. Each round prints its ratios, the last lines their medians and
//! ranges. Another program is any command that prints its rate as `KEY=NUMBER` or `KEY: NUMBER`
//! (`--versus-key`), run without a shell; `--versus` may be given more than once. Pin them all to
//! one core by running `parlor-bench` under `taskset`: the commands inherit the pinning.

use std::process::Command;

use anyhow::{Context, bail};

use crate::spread::Spread;
use parlor_server::tools::adapters::exec::split_command;

/// What to compare with, and how many times.
#[derive(Debug, Clone, Copy)]
pub struct Versus<'a> {
    /// The other programs' command lines (at least one).
    pub commands: &'a [String],
    /// The name of the rate they print.
    pub key: &'a str,
    /// How many rounds (at least one is run).
    pub rounds: usize,
}

/// One round's rates, in hands per second.
#[derive(Debug, Clone, PartialEq)]
struct Round {
    /// Parlor's engine.
    parlor: f64,
    /// Each other program, as it printed it, in the order given.
    versus: Vec<f64>,
}

impl Round {
    /// Parlor's rate over each other program's.
    #[must_use]
    fn ratios(&self) -> Vec<f64> {
        self.versus.iter().map(|rate| self.parlor / rate).collect()
    }
}

/// Runs the rounds, `parlor_rate` measuring Parlor's side of each, printing each round, then
/// the median ratio to each program.
pub fn run(versus: Versus<'_>, parlor_rate: impl FnMut() -> f64) -> anyhow::Result<()> {
    let several = versus.commands.len() > 1;
    if several {
        for (i, command) in versus.commands.iter().enumerate() {
            println!("versus {}: {command}", i + 1);
        }
    }
    let label = |i: usize| {
        if several {
            format!("versus {}", i + 1)
        } else {
            "versus".to_owned()
        }
    };
    let rounds = compare(versus, parlor_rate, |n, round| {
        let others: Vec<String> = round
            .versus
            .iter()
            .zip(round.ratios())
            .enumerate()
            .map(|(i, (rate, ratio))| format!("{} {rate:.0}, ratio {ratio:.3}", label(i)))
            .collect();
        println!(
            "round {n}: parlor {:.0} hands/s, {}",
            round.parlor,
            others.join("; ")
        );
    })?;
    for i in 0..versus.commands.len() {
        let ratios: Vec<f64> = rounds.iter().map(|round| round.ratios()[i]).collect();
        let spread = Spread::of(&ratios).context("no rounds to compare")?;
        println!(
            "{}: hands/s ratio: median {:.3} (range {:.3}-{:.3}) over {} rounds",
            label(i),
            spread.median,
            spread.low,
            spread.high,
            ratios.len()
        );
    }
    Ok(())
}

/// Measures the rounds, handing each to `each` as it ends.
fn compare(
    versus: Versus<'_>,
    mut parlor_rate: impl FnMut() -> f64,
    mut each: impl FnMut(usize, &Round),
) -> anyhow::Result<Vec<Round>> {
    let Versus {
        commands,
        key,
        rounds: count,
    } = versus;
    if commands.is_empty() {
        bail!("--versus: no command to compare with");
    }
    let argvs = commands
        .iter()
        .map(|command| {
            split_command(command).with_context(|| {
                format!("--versus: no command in {command:?} (unbalanced quotes?)")
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut rounds = Vec::new();
    for n in 1..=count.max(1) {
        let round = if n % 2 == 1 {
            let versus = rates(argvs.iter(), key)?;
            Round {
                parlor: parlor_rate(),
                versus,
            }
        } else {
            let parlor = parlor_rate();
            let mut versus = rates(argvs.iter().rev(), key)?;
            versus.reverse();
            Round { parlor, versus }
        };
        each(n, &round);
        rounds.push(round);
    }
    Ok(rounds)
}

/// Runs each program once, in the order given, and reads their rates.
fn rates<'a>(argvs: impl Iterator<Item = &'a Vec<String>>, key: &str) -> anyhow::Result<Vec<f64>> {
    argvs.map(|argv| versus_rate(argv, key)).collect()
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

    fn versus<'a>(commands: &'a [String], key: &'a str, rounds: usize) -> Versus<'a> {
        Versus {
            commands,
            key,
            rounds,
        }
    }

    fn one(command: &str) -> Vec<String> {
        vec![command.to_owned()]
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
            versus(&one("echo hands_per_sec=1000"), "hands_per_sec", 3),
            || parlor.next().expect("one measure a round"),
            |n, round| seen.push((n, round.ratios())),
        )
        .unwrap();
        assert_eq!(seen, [(1, vec![0.4]), (2, vec![0.5]), (3, vec![0.7])]);
        assert!(rounds.iter().all(|round| round.versus == [1000.0]));
    }

    #[test]
    fn a_command_that_fails_or_prints_no_rate_is_an_error() {
        let error = |command, key| {
            compare(versus(&one(command), key, 1), || 1.0, |_, _| {})
                .unwrap_err()
                .to_string()
        };
        assert!(error("false", "rate").contains("failed"));
        assert!(error("echo rate=5", "hands_per_sec").contains("hands_per_sec"));
        assert!(error("echo rate=0", "rate").contains("not a rate"));
        assert!(error("/no/such/program", "rate").contains("running"));
        assert!(error("echo 'open", "rate").contains("no command"));
    }

    /// Several programs are each measured once a round, their rates kept in the order given
    /// whatever order they ran in: the even rounds run Parlor first and the others backwards.
    #[test]
    fn several_programs_are_each_compared_in_every_round() {
        let log = std::env::temp_dir().join(format!("parlor-versus-{}", std::process::id()));
        let _ = std::fs::remove_file(&log);
        let command = |name: &str, rate: u32| {
            format!(
                "sh -c 'echo {name} >> {}; echo hands_per_sec={rate}'",
                log.display()
            )
        };
        let commands = [command("a", 1000), command("b", 500)];
        let mut calls = 0;
        let rounds = compare(
            versus(&commands, "hands_per_sec", 2),
            || {
                calls += 1;
                std::fs::OpenOptions::new()
                    .append(true)
                    .create(true)
                    .open(&log)
                    .and_then(|mut file| std::io::Write::write_all(&mut file, b"parlor\n"))
                    .unwrap();
                250.0
            },
            |_, _| {},
        )
        .unwrap();
        let order = std::fs::read_to_string(&log).unwrap();
        let _ = std::fs::remove_file(&log);
        assert_eq!(calls, 2);
        assert_eq!(
            order.split_whitespace().collect::<Vec<_>>(),
            ["a", "b", "parlor", "parlor", "b", "a"]
        );
        for round in &rounds {
            assert_eq!(round.versus, [1000.0, 500.0]);
            assert_eq!(round.ratios(), [0.25, 0.5]);
        }
    }

    #[test]
    fn no_command_is_an_error() {
        let error = compare(versus(&[], "rate", 1), || 1.0, |_, _| {}).unwrap_err();
        assert!(error.to_string().contains("no command"));
    }
}
