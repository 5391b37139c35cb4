//! `script:PATH`: a heartless-style AI script, run once per decision with the 24
//! `--key=value` arguments, exactly as the heartless crate calls it; it prints the card to play
//! (or the three to pass), read as heartless reads it. A script that
//! fails, overruns its time budget or prints anything but a legal move is replaced for that
//! move by the built-in heuristic.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use parlor_shared::arena::Player;
use parlor_shared::bots::{HeuristicBot, Strategy};
use parlor_shared::{Action, Legal, PlayerView};

use super::heartless;

/// Runs a heartless script for each decision.
pub struct ScriptBot {
    path: String,
    budget: Duration,
    /// Decisions the script failed to make.
    pub failures: u32,
}

impl ScriptBot {
    /// The script at `path` with `budget` per decision.
    #[must_use]
    pub fn new(path: &str, budget: Duration) -> ScriptBot {
        ScriptBot {
            path: path.to_string(),
            budget,
            failures: 0,
        }
    }

    /// Runs the script; its standard output, or `None` if it failed or ran out of time.
    fn run(&self, args: &[String]) -> Option<String> {
        let mut child = Command::new(&self.path)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| tracing::warn!(script = %self.path, "cannot start: {e}"))
            .ok()?;
        let mut stdout = child.stdout.take().expect("piped");
        let mut stderr = child.stderr.take().expect("piped");
        let out = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stdout.read_to_string(&mut text);
            text
        });
        let path = self.path.clone();
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            for line in text.lines() {
                tracing::warn!(script = %path, "stderr: {line}");
            }
        });
        let start = Instant::now();
        loop {
            match child.try_wait() {
                Ok(Some(status)) if status.success() => break,
                Ok(Some(_)) | Err(_) => return None,
                Ok(None) if start.elapsed() > self.budget => {
                    tracing::warn!(script = %self.path, "over its time budget: killed");
                    let _ = child.kill();
                    let _ = child.wait();
                    return None;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            }
        }
        out.join().ok()
    }

    /// The script's move if it printed a legal one.
    fn scripted(&self, view: &PlayerView) -> Option<Action> {
        let output = self.run(&heartless::arguments(view))?;
        // Read as heartless reads it: a suit may be left out when it is the one to follow.
        let cards =
            heartless::parse_cards(&output, Some(view.hand), heartless::suit_to_follow(view))?;
        let action = match view.legal {
            Legal::Play { .. } if cards.len() == 1 => Action::Play {
                card: cards.lowest()?,
            },
            Legal::Pass { count, .. } if cards.len() == count => Action::Pass {
                cards: cards.to_vec(),
            },
            _ => return None,
        };
        view.legal.allows(&action).then_some(action)
    }
}

impl Strategy for ScriptBot {
    fn name(&self) -> &'static str {
        "script"
    }

    fn choose(&mut self, view: &PlayerView) -> Action {
        if view.players == 4
            && let Some(action) = self.scripted(view)
        {
            return action;
        }
        self.failures += 1;
        HeuristicBot::fallback(view).expect("asked to act with something to do")
    }
}

/// In the arena a script is a participant, so its failures are reported.
impl Player for ScriptBot {
    fn act(&mut self, view: &PlayerView) -> Action {
        self.choose(view)
    }

    fn failures(&self) -> u32 {
        self.failures
    }
}
