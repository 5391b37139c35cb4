//! `parlor verify`: checks that a finished hand was dealt fairly. It recomputes the deal from
//! the revealed secret by the recipe of `docs/FAIRNESS.md` (`parlor_shared::fair`), checks
//! that the secret hashes to the commitment published when the hand started, and that every
//! seat was dealt exactly what the record shows. Any mismatch is an error (non-zero exit).
//! A practice table's fixed deal (Bridge's `deal` option) was not dealt from a secret, so it
//! has nothing to verify, and says so.
//!
//! Input: a finished hand (the JSON of `GET /api/tables/{id}/hands/{n}`, from a file, `-` or
//! the URL), or `--secret` with `--variant` and `--dealer` to print a deal from scratch. The
//! deal is the table's own: its options' deck (52 cards, or Spades' with jokers) and the hand
//! sizes of that hand (Oh Hell's change from hand to hand and may leave a stock undealt).

use anyhow::{Context, bail};
use clap::Args;
use parlor_shared::fair::{self, Hash32};
use parlor_shared::{CardSet, Options, Rules, Seat, Variant};

use crate::store::hands::HandReplay;

/// Options of `parlor verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// A finished hand: a replay file, `-` for standard input, or its URL
    /// (`https://HOST/api/tables/ID/hands/N`). Leave out to use `--secret`.
    pub source: Option<String>,
    /// A hand's secret (64 hex digits, `secret` of `hand_scored`): print its deal.
    #[arg(long, conflicts_with = "source", requires_all = ["variant", "dealer"])]
    pub secret: Option<String>,
    /// The variant, with `--secret`.
    #[arg(long)]
    pub variant: Option<Variant>,
    /// The dealer's seat, with `--secret`.
    #[arg(long)]
    pub dealer: Option<u8>,
    /// The table's options as JSON, with `--secret` (e.g. `{"jokers":true}` or
    /// `{"players":3}`): they choose the deck and the hand sizes.
    #[arg(long)]
    pub options: Option<String>,
    /// The hand's number within its match, from 0 (`hand` of `hand_started`), with
    /// `--secret`: Oh Hell's hand sizes depend on it.
    #[arg(long, default_value_t = 0)]
    pub hand: u32,
    /// The commitment published at the hand's start (`hand_started`), with `--secret`:
    /// checked against the secret.
    #[arg(long)]
    pub commitment: Option<String>,
}

/// Checks the hand (or prints the deal) and reports.
pub fn run(args: &VerifyArgs) -> anyhow::Result<()> {
    match (&args.source, &args.secret) {
        (Some(source), _) => {
            let hand = crate::tools::replay::read_hand(source)?;
            let report = check(&hand)?;
            print!("{report}");
            Ok(())
        }
        (None, Some(secret)) => {
            let secret = Hash32::from_hex(secret).context("--secret")?;
            let variant = args
                .variant
                .context("--variant is required with --secret")?;
            let dealer = args.dealer.context("--dealer is required with --secret")?;
            let options: Options = match &args.options {
                Some(json) => serde_json::from_str(json).context("--options")?,
                None => Options::default(),
            };
            let rules = Rules::new(variant, &options).context("--options")?;
            if dealer >= rules.players() {
                bail!(
                    "--dealer {dealer}: {variant} has seats 0 to {}",
                    rules.players() - 1
                );
            }
            let commitment = fair::commitment(&secret);
            println!("commitment {commitment}");
            if let Some(claimed) = &args.commitment {
                let claimed = Hash32::from_hex(claimed).context("--commitment")?;
                if claimed != commitment {
                    bail!("MISMATCH: the secret hashes to {commitment}, not to {claimed}");
                }
                println!("the secret matches the commitment");
            }
            let deal = fair::deal_hand_of(&rules, args.hand, Seat(dealer), &secret);
            print!("{}", deal_text(&deal, rules.players()));
            Ok(())
        }
        (None, None) => bail!("give a finished hand (file, `-` or URL) or --secret"),
    }
}

/// The checks of one finished hand: `Ok` with a report when everything matches, an error
/// naming each mismatch otherwise.
pub fn check(hand: &HandReplay) -> anyhow::Result<String> {
    let where_ = format!(
        "table {} hand {} (match {}, hand {})",
        hand.table, hand.number, hand.match_no, hand.hand
    );
    if hand.options.deal.is_some() {
        bail!(
            "{where_}: a practice table's fixed deal (the `deal` option), set by a person rather than dealt from a secret: there is no commitment, and no fair deal to verify"
        );
    }
    let (Some(commitment), Some(secret)) = (hand.commitment, hand.result.secret) else {
        bail!(
            "{where_}: no commitment and secret to check (dealt before fair deals, or not a Parlor replay of a fair deal)"
        );
    };
    let rules = Rules::new(hand.variant, &hand.options)
        .with_context(|| format!("{where_}: the record's options"))?;
    let shown = Shown {
        commitment,
        dealt: &hand.dealt,
        face_up: hand.face_up,
    };
    let (deal, problems) = check_deal(&rules, hand.hand, hand.dealer, &secret, &shown);
    if !problems.is_empty() {
        bail!("MISMATCH at {where_}:\n  {}", problems.join("\n  "));
    }
    Ok(format!(
        "OK {where_}: the secret {secret} hashes to the commitment {commitment}, and it deals \
         exactly the cards shown\n{}",
        deal_text(&deal, rules.players())
    ))
}

/// What a record says was published and dealt.
struct Shown<'a> {
    /// The commitment sent when the hand started.
    commitment: Hash32,
    /// Each seat's dealt cards, by seat.
    dealt: &'a [CardSet],
    /// The cards turned face up at the deal.
    face_up: CardSet,
}

/// Deals the hand numbered `hand` of a game of `rules` from `secret` (the rules' deck and that
/// hand's sizes) and compares it with what was shown: the deal and every mismatch, in words.
fn check_deal(
    rules: &Rules,
    hand: u32,
    dealer: Seat,
    secret: &Hash32,
    shown: &Shown,
) -> (fair::Deal, Vec<String>) {
    let mut problems = Vec::new();
    let hashed = fair::commitment(secret);
    if hashed != shown.commitment {
        problems.push(format!(
            "the secret hashes to {hashed}, but the hand started with commitment {}",
            shown.commitment
        ));
    }
    let deal = fair::deal_hand_of(rules, hand, dealer, secret);
    let players = rules.players();
    if shown.dealt.len() != usize::from(players) {
        problems.push(format!(
            "the record shows {} dealt hands, the table has {players} seats",
            shown.dealt.len(),
        ));
    }
    for (i, dealt) in shown.dealt.iter().enumerate().take(usize::from(players)) {
        let seat = Seat(i as u8);
        if *dealt != deal.hands[seat] {
            problems.push(format!(
                "seat {i} was dealt {}, the secret deals {}",
                cards(*dealt),
                cards(deal.hands[seat])
            ));
        }
    }
    if shown.face_up != deal.face_up {
        problems.push(format!(
            "the cards face up were {}, the secret turns up {}",
            cards(shown.face_up),
            cards(deal.face_up)
        ));
    }
    (deal, problems)
}

fn cards(set: CardSet) -> String {
    set.iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn deal_text(deal: &fair::Deal, players: u8) -> String {
    let mut out = String::new();
    for seat in Seat::all(players) {
        out.push_str(&format!("seat {}: {}\n", seat.0, cards(deal.hands[seat])));
    }
    if !deal.face_up.is_empty() {
        out.push_str(&format!("face up: {}\n", cards(deal.face_up)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::bots::RandomBot;
    use parlor_shared::deck::Deck;
    use parlor_shared::{Event, Game};

    /// Plays `game` with random bots until it deals the hand numbered `hand`.
    fn reach_hand(game: &mut Game, hand: u32) {
        let mut bot = RandomBot::new(4);
        while game.hand_number() < hand {
            assert!(!game.is_over(), "the match ended before hand {hand}");
            let seat = game.to_act().iter().next().unwrap();
            let mut events: Vec<Event> = Vec::new();
            bot.act_on(game, seat, &mut events).unwrap();
        }
    }

    /// The engine's deal of the current hand as a record shows it, checked against the
    /// secret; then with two cards swapped between seats 0 and 1.
    fn verify_current(game: &Game, master: &Hash32) -> Vec<String> {
        let secret = fair::hand_secret(master, game.hand_number());
        let dealt: Vec<CardSet> = Seat::all(game.players()).map(|s| game.hand(s)).collect();
        let shown = Shown {
            commitment: game.deal_commitment().unwrap(),
            dealt: &dealt,
            face_up: game.face_up(),
        };
        let (deal, problems) = check_deal(
            game.rules(),
            game.hand_number(),
            game.dealer(),
            &secret,
            &shown,
        );
        assert_eq!(problems, Vec::<String>::new());
        let dealt_cards = deal.hands.iter().fold(CardSet::EMPTY, |a, (_, h)| a | *h);
        assert!((dealt_cards & deal.undealt).is_empty());
        assert_eq!(dealt_cards | deal.undealt, game.rules().deck().cards());
        let mut swapped = dealt.clone();
        let (a, b) = (dealt[0].lowest().unwrap(), dealt[1].lowest().unwrap());
        swapped[0].remove(a);
        swapped[0].insert(b);
        swapped[1].remove(b);
        swapped[1].insert(a);
        let tampered = Shown {
            dealt: &swapped,
            ..shown
        };
        check_deal(
            game.rules(),
            game.hand_number(),
            game.dealer(),
            &secret,
            &tampered,
        )
        .1
    }

    #[test]
    fn a_jokers_deal_verifies_from_its_secret_and_a_moved_card_does_not() {
        let options = Options {
            jokers: Some(true),
            ..Options::default()
        };
        let rules = Rules::new(Variant::Spades, &options).unwrap();
        let master = Hash32([3; 32]);
        let game = Game::with_master(rules, master);
        let dealt = Seat::all(4).fold(CardSet::EMPTY, |a, s| a | game.hand(s));
        assert_eq!(dealt, Deck::SPADES_JOKERS.cards());
        let problems = verify_current(&game, &master);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].starts_with("seat 0 was dealt"), "{problems:?}");
        // Read as a table without jokers, the same secret deals other cards.
        let secret = fair::hand_secret(&master, 0);
        let plain =
            fair::deal_hand_of(&Rules::standard(Variant::Spades), 0, game.dealer(), &secret);
        assert_ne!(plain.hands[Seat(0)], game.hand(Seat(0)));
    }

    /// Oh Hell at three seats: the first hand deals 17 each and turns one up; later hands
    /// are smaller and leave a stock. Each verifies with its own hand number.
    #[test]
    fn oh_hell_hands_of_every_size_verify_with_their_hand_number() {
        let options = Options {
            players: Some(3),
            ..Options::default()
        };
        let rules = Rules::new(Variant::OhHell, &options).unwrap();
        let master = Hash32([5; 32]);
        let mut game = Game::with_master(rules, master);
        for hand in [0, 1, 6] {
            reach_hand(&mut game, hand);
            assert_eq!(game.hand(Seat(0)).len(), rules.hand_size(hand));
            let problems = verify_current(&game, &master);
            assert_eq!(problems.len(), 2, "hand {hand}: {problems:?}");
            // The same cards read as another hand of the match do not verify.
            let secret = fair::hand_secret(&master, hand);
            let dealt: Vec<CardSet> = Seat::all(3).map(|s| game.hand(s)).collect();
            let shown = Shown {
                commitment: fair::commitment(&secret),
                dealt: &dealt,
                face_up: game.face_up(),
            };
            let (_, wrong) = check_deal(&rules, hand + 1, game.dealer(), &secret, &shown);
            assert!(!wrong.is_empty(), "hand {hand}");
        }
    }
}
