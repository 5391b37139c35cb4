//! A table without a server: a game, the moves made on it and the messages each viewer would be
//! sent, in the order the server sends them (a move's events, then `your_turn` prompts).

use parlor_shared::bots::RandomBot;
use parlor_shared::deck::DeckRng;
use parlor_shared::rules::{BadCard, Legal};
use parlor_shared::{Action, Event, Game, Seat, Variant};

/// One message a viewer receives that changes its view.
// A test's list of messages: the size of an event (a score line is large) costs nothing here.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Message {
    /// An `event` message.
    Event(Event),
    /// A `your_turn` prompt's `legal`.
    Prompt(Legal),
}

/// A game and the seats that have been prompted and not acted yet, as the server keeps them.
pub struct Table {
    pub game: Game,
    awaiting: Vec<Seat>,
    bot: RandomBot,
    /// Decides when Bridge's declarer claims.
    rng: DeckRng,
    /// Bad cards still allowed: one. Each costs 100, and a match whose players keep paying it
    /// may never reach its target.
    bad_cards_left: u32,
}

impl Table {
    pub fn new(game: Game, seed: u64) -> Table {
        Table {
            game,
            awaiting: Vec::new(),
            bot: RandomBot::new(seed ^ 0x5EED),
            rng: DeckRng::new(seed ^ 0xC1A1),
            bad_cards_left: 1,
        }
    }

    /// The prompts due now: every seat to act that was not asked yet (the server's `prompt`).
    pub fn prompts(&mut self) -> Vec<(Seat, Legal)> {
        let mut due = Vec::new();
        for seat in self.game.to_act().iter() {
            if !self.awaiting.contains(&seat) {
                self.awaiting.push(seat);
                due.push((seat, self.game.legal_actions(seat)));
            }
        }
        due
    }

    /// The next move of a random player, or `None` once the match is over. With
    /// `bad_card`, a seat that holds a card it may not play plays it (tricks' penalty), once
    /// a match at most.
    pub fn next_move(&mut self, bad_card: bool) -> Option<(Seat, Action)> {
        let seat = self.game.to_act().iter().next()?;
        let legal = self.game.legal_actions(seat);
        if bad_card
            && self.bad_cards_left > 0
            && self.game.variant() == Variant::Tricks
            && self.game.rules().bad_card == BadCard::Penalty
            && let Legal::Play { cards } = legal
            && let Some(card) = (self.game.hand(seat) - cards).lowest()
        {
            self.bad_cards_left -= 1;
            return Some((seat, Action::Play { card }));
        }
        if let (Legal::Play { .. }, Some(dummy)) = (legal, self.game.dummy())
            && seat == dummy.partner()
            && self.rng.below(20) == 0
        {
            // Declarer claims now and then: a random number of the tricks left.
            let left = self.game.hand(self.game.next_to_play()).len();
            let tricks = u8::try_from(self.rng.below(left + 1)).expect("a hand of tricks");
            return Some((seat, Action::Claim { tricks }));
        }
        let action = self
            .bot
            .choose_legal(&legal)
            .expect("a seat to act can move");
        Some((seat, action))
    }

    /// Makes a move; returns its events.
    pub fn apply(&mut self, seat: Seat, action: &Action) -> Vec<Event> {
        let events = self.game.apply(seat, action).expect("a legal move");
        // Any move but a pass makes the other prompts stale: the seats still to act are asked
        // again (the second defender of a claim), and a seat no longer to act (the other
        // defender once one rejected it) is asked afresh when its turn comes.
        if !matches!(action, Action::Pass { .. }) {
            self.awaiting.clear();
        }
        let to_act = self.game.to_act();
        self.awaiting.retain(|s| *s != seat && to_act.contains(*s));
        events
    }

    /// What `viewer` is sent for a move's `events` and the `prompts` that follow it.
    pub fn messages_for(
        viewer: Option<Seat>,
        events: &[Event],
        prompts: &[(Seat, Legal)],
    ) -> Vec<Message> {
        let seen = events
            .iter()
            .filter(|e| e.visible_to(viewer))
            .cloned()
            .map(Message::Event);
        let asked = prompts
            .iter()
            .filter(|(seat, _)| Some(*seat) == viewer)
            .map(|(_, legal)| Message::Prompt(*legal));
        seen.chain(asked).collect()
    }

    /// The prompt a (re)connecting seat gets after its snapshot (the server's `sync`).
    pub fn prompt_on_sync(&self, viewer: Option<Seat>) -> Option<Legal> {
        let seat = viewer?;
        self.game
            .to_act()
            .contains(seat)
            .then(|| self.game.legal_actions(seat))
    }
}
