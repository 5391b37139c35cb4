//! A whole Bridge board through the pure parts: deal by board number, auction, play (the
//! last seven tricks double-dummy), duplicate score, IMPs against another table, and PBN
//! written and read back.

use parlor_shared::bridge::dds::{Position, best_plays, solve_position};
use parlor_shared::bridge::imps::board_imps;
use parlor_shared::bridge::pbn::{self, PbnBoard};
use parlor_shared::bridge::score::north_south_score;
use parlor_shared::bridge::{Auction, AuctionResult, Board, Call, compass};
use parlor_shared::{Card, CardSet, PerSeat, Seat};
use rand::SeedableRng;
use rand::seq::SliceRandom;

fn deal(seed: u64) -> PerSeat<CardSet> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut cards: Vec<Card> = CardSet::FULL.iter().collect();
    cards.shuffle(&mut rng);
    let mut hands = PerSeat::new(4);
    for (i, hand) in cards.chunks(13).enumerate() {
        hands[Seat(i as u8)] = hand.iter().copied().collect();
    }
    hands
}

/// The winner of a full trick.
fn winner(trick: &[Card], leader: Seat, trump: Option<parlor_shared::Suit>) -> Seat {
    let mut best = 0;
    for i in 1..4 {
        let (c, b) = (trick[i], trick[best]);
        if (c.suit() == b.suit() && c.rank() > b.rank())
            || (c.suit() != b.suit() && Some(c.suit()) == trump)
        {
            best = i;
        }
    }
    leader.left(best as u8, 4)
}

#[test]
fn a_bridge_board_from_deal_to_pbn() {
    for (number, seed) in [(5u32, 11u64), (12, 29), (16, 3)] {
        let board = Board(number);
        let hands = deal(seed);
        // Everyone passes to the dealer's partner, who opens 1NT; then three passes.
        let mut auction = Auction::new(board.dealer());
        for call in ["P", "P", "1NT", "P", "P", "P"] {
            let seat = auction.next_seat().expect("the auction goes on");
            auction.call(seat, call.parse().unwrap()).unwrap();
        }
        let contract = auction.contract().expect("a contract");
        assert_eq!(contract.declarer, board.dealer().left(2, 4));
        let trump = contract.bid.strain().trump();

        // Six tricks of the lowest legal card, then double-dummy play to the end: along a
        // line where every card is a best one, the value never changes.
        let mut held = hands;
        let mut play = Vec::new();
        let mut leader = contract.opening_leader();
        let mut declarer_tricks = 0u8;
        let mut expected: Option<u8> = None;
        for trick_no in 0..13 {
            let mut trick: Vec<Card> = Vec::new();
            for i in 0..4u8 {
                let seat = leader.left(i, 4);
                let card = if trick_no < 6 {
                    let hand = held[seat];
                    let follow = trick
                        .first()
                        .map(|c| hand.of_suit(c.suit()))
                        .filter(|f| !f.is_empty());
                    follow.unwrap_or(hand).lowest().unwrap()
                } else {
                    let position = Position {
                        hands: held,
                        strain: contract.bid.strain(),
                        leader,
                        trick: trick.clone(),
                    };
                    let best = best_plays(&position).unwrap();
                    assert_eq!(solve_position(&position), Ok(best.tricks));
                    // Tricks still to come for declarer's side, as the solver sees them.
                    let ours = seat.0 % 2 == contract.declarer.0 % 2;
                    let left = held[seat].len() as u8;
                    let for_declarer = if ours {
                        best.tricks
                    } else {
                        left - best.tricks
                    };
                    match expected {
                        None => expected = Some(declarer_tricks + for_declarer),
                        Some(total) => assert_eq!(
                            declarer_tricks + for_declarer,
                            total,
                            "board {number}, trick {trick_no}, {}",
                            compass(seat)
                        ),
                    }
                    best.cards[0]
                };
                held[seat].remove(card);
                trick.push(card);
            }
            play.extend(&trick);
            leader = winner(&trick, leader, trump);
            if leader.0 % 2 == contract.declarer.0 % 2 {
                declarer_tricks += 1;
            }
        }
        assert_eq!(Some(declarer_tricks), expected);
        assert!(held.as_slice().iter().all(|h| h.is_empty()));

        let score = north_south_score(Some(contract), board.vulnerability(), declarer_tricks);
        // At the other table the board is passed out: the whole score is the swing.
        let swing = board_imps(score, 0);
        assert_eq!(swing.signum(), score.signum());

        let record = PbnBoard {
            event: "Bridge test".into(),
            site: "127.0.0.1".into(),
            date: "2026.12.02".into(),
            board,
            players: ["N".into(), "E".into(), "S".into(), "W".into()],
            dealer: board.dealer(),
            vulnerability: board.vulnerability(),
            deal: hands,
            auction: auction.calls().to_vec(),
            contract: Some(AuctionResult::Contract(contract)),
            tricks: Some(declarer_tricks),
            score: Some(score),
            play,
        };
        let text = pbn::write(&record);
        let back = pbn::read(&text).unwrap();
        assert_eq!(back, record);
        assert_eq!(pbn::write(&back), text);
        // A practice table needs only the deal.
        let deal_tag = text
            .lines()
            .find_map(|l| l.strip_prefix("[Deal \""))
            .unwrap();
        assert_eq!(
            pbn::parse_deal(deal_tag.trim_end_matches("\"]")).unwrap(),
            hands
        );
        assert_eq!(back.auction.last(), Some(&Call::Pass));
    }
}
