//! The score sheet every view a table sends shares.

use std::sync::Arc;

use parlor_shared::rules::HandResult;
use parlor_shared::{Game, PlayerView, Seat};

/// The game's score sheet as the table's views hold it. It changes once a hand while a view
/// goes out at every move: shared, a view takes it without a copy, and the view writer
/// (`ViewCache`) knows lines it holds already without comparing them.
#[derive(Debug, Default)]
pub(super) struct SharedSheet(Arc<Vec<HandResult>>);

impl SharedSheet {
    /// `viewer`'s view of `game` (`None`: a spectator), holding the sheet brought up to date.
    pub(super) fn view(&mut self, game: &Game, viewer: Option<Seat>) -> PlayerView {
        if self.0.as_slice() != game.history() {
            self.0 = Arc::new(game.history().to_vec());
        }
        PlayerView::with_history(game, viewer, Arc::clone(&self.0))
    }
}

#[cfg(test)]
mod tests {
    use parlor_shared::bots::RandomBot;
    use parlor_shared::{Options, Variant};

    use super::*;

    /// Views share one copy of the lines until a hand ends, then a new one holding every
    /// line; a new match starts a new sheet; every view equals the one built alone.
    #[test]
    fn views_share_the_lines_until_a_hand_ends() {
        let mut sheet = SharedSheet::default();
        let mut bot = RandomBot::new(4);
        let mut events = Vec::new();
        for seed in [3, 4] {
            let mut game = Game::new(Variant::Hearts, &Options::default(), seed).unwrap();
            let mut last = sheet.view(&game, None);
            assert!(last.history.is_empty());
            while game.history().len() < 2 {
                let seat = game.to_act().first().unwrap();
                bot.act_on(&mut game, seat, &mut events).unwrap();
                let view = sheet.view(&game, Some(seat));
                assert_eq!(view, PlayerView::of(&game, Some(seat)));
                let shared = Arc::ptr_eq(&view.history, &last.history);
                assert_eq!(shared, view.history.len() == last.history.len());
                last = view;
            }
        }
    }
}
