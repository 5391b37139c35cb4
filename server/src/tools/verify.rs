//! `parlor verify`: checks that a finished hand was dealt fairly. It recomputes the deal from
//! the revealed secret by the recipe of `docs/FAIRNESS.md` (`parlor_shared::fair`), checks
//! that the secret hashes to the commitment published when the hand started, and that every
//! seat was dealt exactly what the record shows. Any mismatch is an error (non-zero exit).
//!
//! Input: a finished hand (the JSON of `GET /api/tables/{id}/hands/{n}`, from a file, `-` or
//! the URL), or `--secret` with `--variant` and `--dealer` to print a deal from scratch.

use anyhow::{Context, bail};
use clap::Args;
use parlor_shared::fair::{self, Hash32};
use parlor_shared::{CardSet, Seat, Variant};

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
            if dealer >= variant.players() {
                bail!(
                    "--dealer {dealer}: {variant} has seats 0 to {}",
                    variant.players() - 1
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
            let deal = fair::deal_of(variant, Seat(dealer), &secret);
            print!("{}", deal_text(&deal, variant));
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
    let (Some(commitment), Some(secret)) = (hand.commitment, hand.result.secret) else {
        bail!(
            "{where_}: no commitment and secret to check (dealt before fair deals, or not a Parlor replay of a fair deal)"
        );
    };
    let mut problems = Vec::new();
    let hashed = fair::commitment(&secret);
    if hashed != commitment {
        problems.push(format!(
            "the secret hashes to {hashed}, but the hand started with commitment {commitment}"
        ));
    }
    let deal = fair::deal_of(hand.variant, hand.dealer, &secret);
    let players = hand.variant.players();
    if hand.dealt.len() != usize::from(players) {
        problems.push(format!(
            "the record shows {} dealt hands, {} has {players} seats",
            hand.dealt.len(),
            hand.variant
        ));
    }
    for (i, shown) in hand.dealt.iter().enumerate().take(usize::from(players)) {
        let seat = Seat(i as u8);
        if *shown != deal.hands[seat] {
            problems.push(format!(
                "seat {i} was dealt {}, the secret deals {}",
                cards(*shown),
                cards(deal.hands[seat])
            ));
        }
    }
    if hand.face_up != deal.face_up {
        problems.push(format!(
            "the cards face up were {}, the secret turns up {}",
            cards(hand.face_up),
            cards(deal.face_up)
        ));
    }
    if !problems.is_empty() {
        bail!("MISMATCH at {where_}:\n  {}", problems.join("\n  "));
    }
    Ok(format!(
        "OK {where_}: the secret {secret} hashes to the commitment {commitment}, and it deals \
         exactly the cards shown\n{}",
        deal_text(&deal, hand.variant)
    ))
}

fn cards(set: CardSet) -> String {
    set.iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn deal_text(deal: &fair::Deal, variant: Variant) -> String {
    let mut out = String::new();
    for seat in Seat::all(variant.players()) {
        out.push_str(&format!("seat {}: {}\n", seat.0, cards(deal.hands[seat])));
    }
    if !deal.face_up.is_empty() {
        out.push_str(&format!("face up: {}\n", cards(deal.face_up)));
    }
    out
}
