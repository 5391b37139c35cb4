//! `exec:CMD`: a bot program speaking the contest line protocol over its standard input and
//! output. The adapter turns the seat's events into `INFO` lines exactly as the contest's
//! reference server sends them (`end trick` carries the winner's game score, `bad card` the
//! program's own text), asks `QUERY|card` on its turn (and, in the games that bid, `QUERY|bid`
//! with the allowed range, every bid then shown in a `bid` line), and never lets the program
//! stall or break the table: a late, illegal or missing answer gets the table's policy
//! (`tricks`' bad-card penalty, else a built-in move, a card followed by the true hand in a
//! fresh `cards` line); a program over its time budget is killed and replaced. Passes are made
//! for the program by the heuristic, then the new hand is sent.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use parlor_shared::arena::Player;
use parlor_shared::bots::{HeuristicBot, Strategy};
use parlor_shared::rules::BadCard;
use parlor_shared::{Action, CardSet, Event, Legal, PerSeat, PlayerView, Seat, Variant};

use super::line::{self, Answer};

/// How often a program may be replaced in one match before the adapter stops restarting it
/// and plays the built-in moves itself.
const MAX_RESTARTS: u32 = 3;

/// A running program: its input, a channel of its output lines, and the child to kill.
struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Proc {
    /// Starts `argv` plus the player's name, with stderr drained into the log.
    fn spawn(argv: &[String], name: &str) -> std::io::Result<Proc> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| std::io::Error::other("empty command"))?;
        let mut child = Command::new(program)
            .args(args)
            .arg(name)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let who = name.to_string();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                tracing::warn!(bot = %who, "stderr: {line}");
            }
        });
        Ok(Proc {
            child,
            stdin: Some(stdin),
            lines,
        })
    }

    /// Sends one line; false if the program is gone.
    fn send(&mut self, line: &str) -> bool {
        let Some(stdin) = &mut self.stdin else {
            return false;
        };
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .is_ok()
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        // Closing its input lets a well-behaved program finish on its own; give it a moment.
        self.stdin = None;
        for _ in 0..20 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Splits a command line into words as a POSIX shell would, quotes and backslashes included
/// (`'/opt/my bots/run' --fast`), but runs no shell: nothing is expanded. `None` when the
/// quoting is unbalanced or there is no word at all.
#[must_use]
pub fn split_command(cmd: &str) -> Option<Vec<String>> {
    shlex::split(cmd).filter(|words| !words.is_empty())
}

/// The line-protocol adapter for one seat.
pub struct ExecBot {
    argv: Vec<String>,
    names: Vec<String>,
    me: Seat,
    budget: Duration,
    proc: Option<Proc>,
    restarts: u32,
    hand: CardSet,
    hand_number: u32,
    trick_number: u32,
    trick_started: bool,
    /// Each seat's match score as the contest counts it: a trick's point the moment it is
    /// won (`tricks`), bad-card penalties at once, otherwise the score sheet's totals.
    scores: PerSeat<i32>,
    /// Points count trick by trick (`tricks`) rather than when a hand is scored.
    trick_points: bool,
    game_started: bool,
    /// What the program wrote when its answer was not a card: the contest server repeats it in
    /// the `bad card` line.
    bad_text: Option<String>,
    /// True from a deal until the passes of the hand have arrived.
    passing: bool,
    /// After a built-in move, the true hand is sent again once the move is played.
    resend_cards: bool,
    /// Moves the program failed to make (answered late, illegally or not at all).
    pub failures: u32,
}

impl ExecBot {
    /// The adapter for `seat` at a table of `variant` with `players` seats, running `argv`
    /// (the program gets its name, `seatN`, as its last argument) with `budget` per move.
    pub fn new(
        argv: Vec<String>,
        variant: Variant,
        players: u8,
        seat: Seat,
        budget: Duration,
    ) -> std::io::Result<ExecBot> {
        let names: Vec<String> = (0..players).map(|s| format!("seat{s}")).collect();
        let proc = Proc::spawn(&argv, &names[seat.index()])?;
        Ok(ExecBot {
            argv,
            names,
            me: seat,
            budget,
            proc: Some(proc),
            restarts: 0,
            hand: CardSet::EMPTY,
            hand_number: 0,
            trick_number: 0,
            trick_started: false,
            scores: PerSeat::new(players),
            trick_points: variant.facts().trick_points,
            game_started: false,
            bad_text: None,
            passing: false,
            resend_cards: false,
            failures: 0,
        })
    }

    fn send(&mut self, line: &str) {
        if let Some(p) = &mut self.proc
            && !p.send(line)
        {
            self.proc = None;
        }
    }

    fn info(&mut self, key: &str, fields: &[String]) {
        let line = line::info(key, fields);
        self.send(&line);
    }

    fn send_cards(&mut self) {
        let field = line::hand_field(self.hand);
        self.info("cards", &[field]);
    }

    fn start_trick(&mut self, leader: Seat) {
        self.trick_started = true;
        let n = self.names.len() as u8;
        let mut fields = vec![self.trick_number.to_string()];
        fields.extend((0..n).map(|i| self.names[leader.left(i, n).index()].clone()));
        self.info("start trick", &fields);
    }

    /// Kills the program and starts a fresh one, told the game, the hand and its cards.
    fn replace(&mut self) {
        self.proc = None;
        if self.restarts >= MAX_RESTARTS {
            return;
        }
        self.restarts += 1;
        tracing::warn!(bot = %self.argv.join(" "), "replacing the program");
        self.proc = Proc::spawn(&self.argv, &self.names[self.me.index()]).ok();
        let names = self.names.clone();
        self.info("start game", &names);
        self.info("start hand", &[self.hand_number.to_string()]);
        self.send_cards();
    }

    /// Sends `query` and waits for the program's answer line; `None` when it does not answer
    /// in time.
    fn ask(&mut self, query: &str) -> Option<String> {
        if self.proc.is_none() && self.restarts < MAX_RESTARTS {
            self.replace();
        }
        let proc = self.proc.as_mut()?;
        while proc.lines.try_recv().is_ok() {}
        if !proc.send(query) {
            self.proc = None;
            return None;
        }
        match proc.lines.recv_timeout(self.budget) {
            Ok(l) => Some(l),
            Err(RecvTimeoutError::Timeout) => {
                tracing::warn!(bot = %self.argv.join(" "), "no answer in time");
                self.replace();
                None
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.proc = None;
                None
            }
        }
    }

    /// The move when the program failed: `tricks` (with the penalty rule) submits the bad card
    /// so the engine fines it; elsewhere the heuristic plays and the hand is resent.
    fn fallback(&mut self, view: &PlayerView, answer: Option<Answer>) -> Action {
        self.failures += 1;
        if view.variant == Variant::Tricks && view.options.bad_card != Some(BadCard::Reject) {
            let card = match answer {
                Some(Answer::Card(c)) => c,
                other => {
                    if let Some(Answer::Garbage(Some(text))) = other {
                        self.bad_text = Some(text);
                    }
                    (CardSet::FULL - self.hand)
                        .lowest()
                        .expect("a card not held")
                }
            };
            return Action::Play { card };
        }
        self.resend_cards = true;
        HeuristicBot::fallback(view).expect("asked to act with something to do")
    }
}

impl Player for ExecBot {
    fn failures(&self) -> u32 {
        self.failures
    }

    fn act(&mut self, view: &PlayerView) -> Action {
        let cards: CardSet = match view.legal {
            Legal::Play { cards } => cards,
            Legal::Bid {
                min,
                max,
                forbidden,
            } => {
                let answer = self.ask(&line::query_bid(min, max, forbidden));
                let bid = Action::Bid {
                    tricks: answer
                        .as_deref()
                        .and_then(line::parse_bid)
                        .unwrap_or(u8::MAX),
                };
                if view.legal.allows(&bid) {
                    return bid;
                }
                self.failures += 1;
                return HeuristicBot.choose(view);
            }
            // Passing is done for the program; it learns its new hand afterwards.
            _ => return HeuristicBot.choose(view),
        };
        self.hand = view.hand;
        if view.trick.plays.is_empty() && !self.trick_started {
            self.start_trick(self.me);
        }
        let answer = self
            .ask(&line::query_card())
            .map(|l| line::parse_answer(&l));
        match answer {
            Some(Answer::Card(card)) if cards.contains(card) => Action::Play { card },
            other => self.fallback(view, other),
        }
    }

    fn observe(&mut self, events: &[Event]) {
        let mut exchanged = false;
        for event in events {
            match event {
                Event::HandStarted { hand, pass, .. } => {
                    if !self.game_started {
                        self.game_started = true;
                        self.scores = PerSeat::new(self.names.len() as u8);
                        let names = self.names.clone();
                        self.info("start game", &names);
                    }
                    self.hand_number = *hand;
                    self.trick_number = 0;
                    self.trick_started = false;
                    self.info("start hand", &[hand.to_string()]);
                    // With passing, the hand is sent once the passes have arrived.
                    self.resend_cards = false;
                    self.passing = pass.is_some();
                }
                Event::Dealt { seat, cards } if *seat == self.me => {
                    self.hand = *cards;
                    if !self.passing {
                        self.send_cards();
                    }
                }
                Event::TrumpShown { trump, cards } => {
                    // An extension for variants with trump (never sent in `tricks`).
                    self.info(
                        "trump",
                        &[trump.letter().to_string(), line::hand_field(*cards)],
                    );
                }
                Event::CardsPassed { from, to, cards } => {
                    if *from == self.me {
                        self.hand -= *cards;
                    }
                    if *to == self.me {
                        self.hand |= *cards;
                    }
                    exchanged = true;
                    self.passing = false;
                }
                Event::Bid { seat, tricks } => {
                    let fields = [self.names[seat.index()].clone(), tricks.to_string()];
                    self.info("bid", &fields);
                }
                Event::Played { seat, card } => {
                    if !self.trick_started {
                        self.start_trick(*seat);
                    }
                    if *seat == self.me {
                        self.hand.remove(*card);
                    }
                    let fields = [self.names[seat.index()].clone(), card.to_string()];
                    self.info("played", &fields);
                    if *seat == self.me && self.resend_cards {
                        self.resend_cards = false;
                        self.send_cards();
                    }
                }
                Event::TrickWon { winner, .. } => {
                    if self.trick_points {
                        self.scores[*winner] += 1;
                    }
                    // The contest's third field: the winner's score in the game so far.
                    let fields = [
                        self.trick_number.to_string(),
                        self.names[winner.index()].clone(),
                        self.scores[*winner].to_string(),
                    ];
                    self.info("end trick", &fields);
                    self.trick_number += 1;
                    self.trick_started = false;
                }
                Event::BadCard {
                    seat,
                    card,
                    penalty,
                } => {
                    self.scores[*seat] += penalty;
                    let text = match self.bad_text.take() {
                        Some(text) if *seat == self.me => text,
                        _ => card.to_string(),
                    };
                    let fields = [self.names[seat.index()].clone(), text];
                    self.info("bad card", &fields);
                }
                Event::HandScored(result) => {
                    self.scores = result.totals;
                    self.info("end hand", &[result.hand.to_string()]);
                }
                Event::MatchOver { totals, .. } => {
                    let fields: Vec<String> = totals
                        .iter()
                        .map(|(s, t)| format!("{} {t}", self.names[s.index()]))
                        .collect();
                    self.info("end game", &fields);
                    self.proc = None;
                }
                _ => {}
            }
        }
        if exchanged {
            self.send_cards();
        }
        if self.resend_cards {
            self.resend_cards = false;
            self.send_cards();
        }
    }
}
