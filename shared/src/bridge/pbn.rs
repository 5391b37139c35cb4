//! Portable Bridge Notation (PBN): a finished board written as text any bridge program
//! reads, and read back, so boards can be downloaded, studied elsewhere, and replayed at a
//! practice table from their `Deal` tag alone.
//!
//! What is written: the tags `Event`, `Site`, `Date`, `Board`, `West`, `North`, `East`,
//! `South`, `Dealer`, `Vulnerable`, `Deal`, `Declarer`, `Contract`, `Result` and `Score`,
//! then the `Auction` section (calls in rows of four from the dealer) and the `Play` section
//! (one row a trick, in columns from the opening leader clockwise, whoever led the trick).
//! Reading accepts what other programs commonly add: comments in braces or after `;`, `%`
//! lines, notes (`=1=`), annotations (`!`, `?`, `$n`), `AP` for the closing passes, `-` for
//! a card not played, and unknown tags (ignored).

use std::fmt::Write as _;

use thiserror::Error;

use super::auction::{Auction, AuctionError, AuctionResult, Contract, Doubling};
use super::board::{Board, Vulnerability};
use super::call::{Bid, Call, Strain};
use super::{compass, next, seat_of_compass};
use crate::card::{Card, CardSet, Rank, Suit};
use crate::seat::{PerSeat, Seat};

/// One board as PBN describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PbnBoard {
    /// The event's name.
    pub event: String,
    /// Where it was played.
    pub site: String,
    /// When, as `YYYY.MM.DD` (question marks for unknown parts).
    pub date: String,
    /// The board number (sets dealer and vulnerability in duplicate).
    pub board: Board,
    /// The players' names by seat (North first).
    pub players: [String; 4],
    /// Who dealt.
    pub dealer: Seat,
    /// Who was vulnerable.
    pub vulnerability: Vulnerability,
    /// The thirteen cards of each seat.
    pub deal: PerSeat<CardSet>,
    /// The calls from the dealer (empty when unknown).
    pub auction: Vec<Call>,
    /// The final contract or a passed-out board; `None` when not known.
    pub contract: Option<AuctionResult>,
    /// Tricks taken by declarer's side, once played.
    pub tricks: Option<u8>,
    /// North-South's score, once played.
    pub score: Option<i32>,
    /// The cards in the order played, from the opening lead.
    pub play: Vec<Card>,
}

/// Why a text is not a board this reader understands.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PbnError {
    /// A tag every board needs is absent.
    #[error("the [{0} \"...\"] tag is missing")]
    MissingTag(&'static str),
    /// A tag line is not `[Name "value"]`.
    #[error("`{0}` is not a tag: write [Name \"value\"]")]
    BadTagLine(String),
    /// A tag's value does not parse.
    #[error("[{tag} \"{value}\"]: {reason}")]
    BadValue {
        /// The tag.
        tag: &'static str,
        /// Its value.
        value: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The deal is not four hands of thirteen distinct cards.
    #[error("deal `{deal}`: {reason}")]
    BadDeal {
        /// The Deal tag's value.
        deal: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A token of the auction is not a call.
    #[error("`{0}` in the auction is not a call")]
    BadCall(String),
    /// A call breaks the rules of the auction.
    #[error("call {number} of the auction: {error}")]
    IllegalCall {
        /// 1-based.
        number: usize,
        /// The rule broken.
        error: AuctionError,
    },
    /// The Contract tag disagrees with the auction.
    #[error("the contract {tag} is not what the auction reached ({auction})")]
    ContractMismatch {
        /// As the tag says.
        tag: String,
        /// As the auction ends.
        auction: String,
    },
    /// A token of the play is not a card.
    #[error("`{0}` in the play is not a card (write the suit then the rank, like SA or DT)")]
    BadCard(String),
    /// A card played breaks the rules.
    #[error("trick {trick}: {reason}")]
    IllegalPlay {
        /// 1-based.
        trick: usize,
        /// What is wrong.
        reason: String,
    },
}

/// The four hands of a `Deal` tag value, like `N:AKQ2.T93.J4.A85 ...`: a compass letter,
/// then the hands clockwise from that seat, each as spades.hearts.diamonds.clubs with ranks
/// from the ace down (`T` for ten). Every hand must be given, thirteen distinct cards each.
pub fn parse_deal(text: &str) -> Result<PerSeat<CardSet>, PbnError> {
    let bad = |reason: &str| PbnError::BadDeal {
        deal: text.to_string(),
        reason: reason.to_string(),
    };
    let text = text.trim();
    let (first, hands) = text
        .split_once(':')
        .ok_or_else(|| bad("start with the first hand's seat and a colon, like N:"))?;
    let mut chars = first.chars();
    let first = match (chars.next().and_then(seat_of_compass), chars.next()) {
        (Some(seat), None) => seat,
        _ => return Err(bad("the first hand's seat is N, E, S or W")),
    };
    let hands: Vec<&str> = hands.split_whitespace().collect();
    if hands.len() != 4 {
        return Err(bad("give four hands separated by spaces"));
    }
    let mut deal = PerSeat::new(4);
    let mut seen = CardSet::EMPTY;
    for (i, hand) in hands.iter().enumerate() {
        let suits: Vec<&str> = hand.split('.').collect();
        if suits.len() != 4 {
            return Err(bad("each hand is four suits: spades.hearts.diamonds.clubs"));
        }
        let mut cards = CardSet::EMPTY;
        for (holding, suit) in
            suits
                .iter()
                .zip([Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs])
        {
            for c in holding.chars() {
                let rank =
                    Rank::from_char(c).ok_or_else(|| bad(&format!("`{c}` is not a rank")))?;
                let card = Card::new(rank, suit);
                if !seen.insert(card) {
                    return Err(bad(&format!("{card} appears twice")));
                }
                cards.insert(card);
            }
        }
        if cards.len() != 13 {
            return Err(bad("each hand holds thirteen cards"));
        }
        deal[first.left(i as u8, 4)] = cards;
    }
    Ok(deal)
}

/// The `Deal` tag value for `deal`, starting from `first`.
#[must_use]
pub fn format_deal(deal: &PerSeat<CardSet>, first: Seat) -> String {
    let mut out = format!("{}:", compass(first));
    for i in 0..4 {
        if i > 0 {
            out.push(' ');
        }
        let hand = deal[first.left(i, 4)];
        let suits: Vec<String> = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs]
            .iter()
            .map(|&s| {
                let mut ranks: Vec<char> =
                    hand.of_suit(s).iter().map(|c| c.rank().letter()).collect();
                ranks.reverse();
                ranks.into_iter().collect()
            })
            .collect();
        out.push_str(&suits.join("."));
    }
    out
}

/// A call as PBN writes it: `Pass`, `1C`, `3NT`, `X`, `XX`.
fn call_text(call: Call) -> String {
    match call {
        Call::Pass => "Pass".to_string(),
        other => other.to_string(),
    }
}

/// A card as PBN writes it: suit then rank, `SA`, `DT`.
fn card_text(card: Card) -> String {
    format!("{}{}", card.suit().letter(), card.rank().letter())
}

/// Reads a PBN card (suit then rank); also accepts rank then suit.
fn parse_card(token: &str) -> Option<Card> {
    let mut chars = token.chars();
    let (a, b) = (chars.next()?, chars.next()?);
    if chars.next().is_some() {
        return None;
    }
    if let (Some(suit), Some(rank)) = (Suit::from_char(a), Rank::from_char(b)) {
        return Some(Card::new(rank, suit));
    }
    token.parse().ok()
}

/// A contract as the Contract tag writes it: `4HX`, or `Pass` for a passed-out board.
fn contract_text(result: AuctionResult) -> String {
    match result {
        AuctionResult::PassedOut => "Pass".to_string(),
        AuctionResult::Contract(c) => format!("{}{}", c.bid, c.doubled.suffix()),
    }
}

/// A tag value with `"` and `\` escaped.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The board's text: its tags, then the auction and the play.
#[must_use]
pub fn write(board: &PbnBoard) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    };
    tag("Event", &board.event);
    tag("Site", &board.site);
    tag("Date", &board.date);
    tag("Board", &board.board.0.to_string());
    for seat in [3u8, 0, 1, 2] {
        let name = ["North", "East", "South", "West"][usize::from(seat)];
        tag(name, &board.players[usize::from(seat)]);
    }
    tag("Dealer", &compass(board.dealer).to_string());
    tag("Vulnerable", board.vulnerability.as_pbn());
    tag("Deal", &format_deal(&board.deal, board.dealer));
    let contract = board.contract.and_then(AuctionResult::contract);
    tag(
        "Declarer",
        &contract.map_or(String::new(), |c| compass(c.declarer).to_string()),
    );
    tag(
        "Contract",
        &board.contract.map_or(String::new(), contract_text),
    );
    tag(
        "Result",
        &board.tricks.map_or(String::new(), |t| t.to_string()),
    );
    if let Some(score) = board.score {
        tag("Score", &format!("NS {score}"));
    }
    if !board.auction.is_empty() {
        tag("Auction", &compass(board.dealer).to_string());
        for row in board.auction.chunks(4) {
            let calls: Vec<String> = row.iter().map(|&c| call_text(c)).collect();
            let _ = writeln!(out, "{}", calls.join(" "));
        }
    }
    if let (Some(c), false) = (contract, board.play.is_empty()) {
        let leader = c.opening_leader();
        let _ = writeln!(out, "[Play \"{}\"]", compass(leader));
        for row in play_rows(&board.play, leader, c.bid.strain()) {
            let _ = writeln!(out, "{}", row.join(" "));
        }
    }
    out
}

/// The play in PBN's rows: one a trick, the opening leader's column first, `-` for a card
/// not (yet) played.
fn play_rows(play: &[Card], opening_leader: Seat, strain: Strain) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut leader = opening_leader;
    for trick in play.chunks(4) {
        let mut row = vec!["-".to_string(); 4];
        for (i, &card) in trick.iter().enumerate() {
            let seat = leader.left(i as u8, 4);
            let column = (seat.0 + 4 - opening_leader.0) % 4;
            row[usize::from(column)] = card_text(card);
        }
        if trick.len() == 4 {
            leader = trick_winner(trick, leader, strain);
        }
        rows.push(row);
    }
    rows
}

/// Who wins a full trick led by `leader`.
fn trick_winner(trick: &[Card], leader: Seat, strain: Strain) -> Seat {
    let trump = strain.trump();
    let mut best = 0;
    for i in 1..trick.len() {
        let (c, b) = (trick[i], trick[best]);
        let beats = if c.suit() == b.suit() {
            c.rank() > b.rank()
        } else {
            Some(c.suit()) == trump
        };
        if beats {
            best = i;
        }
    }
    leader.left(best as u8, 4)
}

/// The tags and section lines of one board's text.
struct Parsed {
    tags: Vec<(String, String)>,
    auction: Vec<String>,
    play: Vec<String>,
}

/// Splits the text into tags and the tokens of the Auction and Play sections, dropping
/// comments.
fn tokenize(text: &str) -> Result<Parsed, PbnError> {
    let mut parsed = Parsed {
        tags: Vec::new(),
        auction: Vec::new(),
        play: Vec::new(),
    };
    let mut section = String::new();
    let mut in_comment = false;
    for line in text.lines() {
        if line.starts_with('%') {
            continue;
        }
        // Drop comments: braces (across lines) and from `;` to the line's end.
        let mut clean = String::new();
        for c in line.chars() {
            match c {
                '{' if !in_comment => in_comment = true,
                '}' if in_comment => in_comment = false,
                ';' if !in_comment => break,
                _ if !in_comment => clean.push(c),
                _ => {}
            }
        }
        let clean = clean.trim();
        if clean.is_empty() {
            continue;
        }
        if let Some(inner) = clean.strip_prefix('[') {
            let inner = inner
                .strip_suffix(']')
                .ok_or_else(|| PbnError::BadTagLine(clean.to_string()))?;
            let (name, value) = inner
                .trim()
                .split_once(char::is_whitespace)
                .ok_or_else(|| PbnError::BadTagLine(clean.to_string()))?;
            let value = value.trim();
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| PbnError::BadTagLine(clean.to_string()))?;
            let value = value.replace("\\\"", "\"").replace("\\\\", "\\");
            section = name.to_string();
            parsed.tags.push((name.to_string(), value));
            continue;
        }
        let tokens = clean.split_whitespace().map(str::to_string);
        match section.as_str() {
            "Auction" => parsed.auction.extend(tokens),
            "Play" => parsed.play.extend(tokens),
            _ => {}
        }
    }
    Ok(parsed)
}

impl Parsed {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads one board written by [`write()`] or by another program.
pub fn read(text: &str) -> Result<PbnBoard, PbnError> {
    let parsed = tokenize(text)?;
    let get = |name: &'static str| parsed.tag(name).unwrap_or("").to_string();
    let bad = |tag: &'static str, value: &str, reason: &str| PbnError::BadValue {
        tag,
        value: value.to_string(),
        reason: reason.to_string(),
    };
    let board_text = parsed.tag("Board").ok_or(PbnError::MissingTag("Board"))?;
    let board = Board(
        board_text
            .trim()
            .parse()
            .map_err(|_| bad("Board", board_text, "a board number is a whole number"))?,
    );
    let dealer = match parsed.tag("Dealer") {
        None | Some("") => board.dealer(),
        Some(d) => {
            let mut chars = d.trim().chars();
            match (chars.next().and_then(seat_of_compass), chars.next()) {
                (Some(seat), None) => seat,
                _ => return Err(bad("Dealer", d, "the dealer is N, E, S or W")),
            }
        }
    };
    let vulnerability = match parsed.tag("Vulnerable") {
        None | Some("") => board.vulnerability(),
        Some(v) => v
            .trim()
            .parse()
            .map_err(|e: super::board::VulnerabilityParseError| {
                bad("Vulnerable", v, &e.to_string())
            })?,
    };
    let deal = parse_deal(parsed.tag("Deal").ok_or(PbnError::MissingTag("Deal"))?)?;

    // The auction, replayed so that its legality and its end are checked.
    let mut auction = Auction::new(dealer);
    for token in &parsed.auction {
        let token = token.trim_end_matches(['!', '?']);
        if token.is_empty() || token.starts_with('$') || token.starts_with('=') || token == "-" {
            continue;
        }
        if token.eq_ignore_ascii_case("AP") {
            while let Some(seat) = auction.next_seat() {
                let number = auction.calls().len() + 1;
                auction
                    .call(seat, Call::Pass)
                    .map_err(|error| PbnError::IllegalCall { number, error })?;
            }
            continue;
        }
        if token == "*" {
            break;
        }
        let call: Call = token
            .parse()
            .map_err(|_| PbnError::BadCall(token.to_string()))?;
        let number = auction.calls().len() + 1;
        let seat = auction.next_seat().ok_or(PbnError::IllegalCall {
            number,
            error: AuctionError::AuctionOver,
        })?;
        auction
            .call(seat, call)
            .map_err(|error| PbnError::IllegalCall { number, error })?;
    }

    let contract = read_contract(&parsed)?;
    if let (Some(from_auction), Some(tagged)) = (auction.result(), contract)
        && from_auction != tagged
    {
        return Err(PbnError::ContractMismatch {
            tag: contract_text(tagged),
            auction: contract_text(from_auction),
        });
    }
    let contract = contract.or(auction.result());

    let tricks = match get("Result").trim() {
        "" | "?" => None,
        t => Some(t.parse::<u8>().ok().filter(|&n| n <= 13).ok_or_else(|| {
            bad(
                "Result",
                t,
                "the result is the tricks declarer took, 0 to 13",
            )
        })?),
    };
    let score = match get("Score").trim() {
        "" | "?" => None,
        s => Some(read_score(s, contract).ok_or_else(|| {
            bad(
                "Score",
                s,
                "write the score as NS 620, EW 100, or a number for declarer",
            )
        })?),
    };
    let play = match contract.and_then(AuctionResult::contract) {
        Some(c) => read_play(&parsed, &deal, c)?,
        None => Vec::new(),
    };
    let players = [get("North"), get("East"), get("South"), get("West")];
    Ok(PbnBoard {
        event: get("Event"),
        site: get("Site"),
        date: get("Date"),
        board,
        players,
        dealer,
        vulnerability,
        deal,
        auction: auction.calls().to_vec(),
        contract,
        tricks,
        score,
        play,
    })
}

/// The Contract and Declarer tags, if given.
fn read_contract(parsed: &Parsed) -> Result<Option<AuctionResult>, PbnError> {
    let text = parsed.tag("Contract").unwrap_or("").trim();
    if text.is_empty() || text == "?" {
        return Ok(None);
    }
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Some(AuctionResult::PassedOut));
    }
    let bad = |reason: &str| PbnError::BadValue {
        tag: "Contract",
        value: text.to_string(),
        reason: reason.to_string(),
    };
    let upper = text.to_ascii_uppercase();
    let (bid, doubled) = if let Some(b) = upper.strip_suffix("XX") {
        (b, Doubling::Redoubled)
    } else if let Some(b) = upper.strip_suffix('X') {
        (b, Doubling::Doubled)
    } else {
        (upper.as_str(), Doubling::Undoubled)
    };
    let bid: Bid = bid
        .parse()
        .map_err(|e: super::call::CallParseError| bad(&e.to_string()))?;
    let declarer_text = parsed
        .tag("Declarer")
        .ok_or(PbnError::MissingTag("Declarer"))?;
    let mut chars = declarer_text.trim().chars();
    let declarer = match (chars.next().and_then(seat_of_compass), chars.next()) {
        (Some(seat), None) => seat,
        _ => {
            return Err(PbnError::BadValue {
                tag: "Declarer",
                value: declarer_text.to_string(),
                reason: "the declarer is N, E, S or W".to_string(),
            });
        }
    };
    Ok(Some(AuctionResult::Contract(Contract {
        bid,
        doubled,
        declarer,
    })))
}

/// North-South's score from a Score tag: `NS 620`, `EW -100`, or a plain number, which is
/// declarer's side's.
fn read_score(text: &str, contract: Option<AuctionResult>) -> Option<i32> {
    let mut words = text.split_whitespace();
    let first = words.next()?;
    let (side, number) = match words.next() {
        Some(n) => (Some(first), n),
        None => (None, first),
    };
    let value: i32 = number.parse().ok()?;
    match side.map(str::to_ascii_uppercase).as_deref() {
        Some("NS") => Some(value),
        Some("EW") => Some(-value),
        Some(_) => None,
        None => match contract.and_then(AuctionResult::contract) {
            Some(c) if c.declarer.0 % 2 == 1 => Some(-value),
            _ => Some(value),
        },
    }
}

/// The Play section as cards in the order played, checked against the hands and the rule
/// to follow suit.
fn read_play(parsed: &Parsed, deal: &PerSeat<CardSet>, c: Contract) -> Result<Vec<Card>, PbnError> {
    if parsed.play.is_empty() {
        return Ok(Vec::new());
    }
    let first_column = match parsed.tag("Play").map(str::trim) {
        Some(t) if t.len() == 1 => seat_of_compass(t.chars().next().unwrap_or('?')),
        _ => None,
    };
    let first_column = first_column.ok_or_else(|| PbnError::BadValue {
        tag: "Play",
        value: parsed.tag("Play").unwrap_or("").to_string(),
        reason: "the opening leader is N, E, S or W".to_string(),
    })?;
    if first_column != c.opening_leader() {
        return Err(PbnError::BadValue {
            tag: "Play",
            value: compass(first_column).to_string(),
            reason: format!(
                "the opening leader is declarer's left, {}",
                compass(c.opening_leader())
            ),
        });
    }
    let tokens: Vec<&str> = parsed
        .play
        .iter()
        .map(|t| t.trim_end_matches(['!', '?']))
        .filter(|t| !t.is_empty() && !t.starts_with('$') && !t.starts_with('='))
        .take_while(|&t| t != "*")
        .collect();
    let mut hands = *deal;
    let mut play = Vec::new();
    let mut leader = next(c.declarer);
    for (number, row) in tokens.chunks(4).enumerate() {
        let trick_no = number + 1;
        let mut by_seat: [Option<Card>; 4] = [None; 4];
        for (column, &token) in row.iter().enumerate() {
            if token == "-" {
                continue;
            }
            let card = parse_card(token).ok_or_else(|| PbnError::BadCard(token.to_string()))?;
            by_seat[usize::from(first_column.left(column as u8, 4).0)] = Some(card);
        }
        let mut trick = Vec::new();
        for i in 0..4 {
            let seat = leader.left(i, 4);
            let Some(card) = by_seat[seat.index()] else {
                break;
            };
            let illegal = |reason: String| PbnError::IllegalPlay {
                trick: trick_no,
                reason,
            };
            if !hands[seat].contains(card) {
                return Err(illegal(format!("{} does not hold {card}", compass(seat))));
            }
            if let Some(&led) = trick.first() {
                let led: Card = led;
                if card.suit() != led.suit() && hands[seat].has_suit(led.suit()) {
                    return Err(illegal(format!(
                        "{} played {card} but holds {} and must follow suit",
                        compass(seat),
                        led.suit().name()
                    )));
                }
            }
            hands[seat].remove(card);
            trick.push(card);
        }
        let complete = trick.len() == 4;
        play.extend(&trick);
        if !complete {
            break;
        }
        leader = trick_winner(&trick, leader, c.bid.strain());
    }
    Ok(play)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::score::north_south_score;
    use crate::bridge::{EAST, NORTH, SOUTH, WEST};

    /// A board of our own: East deals board 2 (North-South vulnerable); South plays four
    /// spades after a simple auction, loses a spade, a diamond and a club, and takes ten.
    const EXAMPLE: &str = r#"[Event "Parlor club night"]
[Site "Parlor"]
[Date "2026.12.02"]
[Board "2"]
[West "Wendy"]
[North "Nils"]
[East "Erin"]
[South "Sam"]
[Dealer "E"]
[Vulnerable "NS"]
[Deal "E:QT5.QJ9.KJ84.QJ5 AKJ9742.A2.73.K6 3.T763.T652.A972 86.K854.AQ9.T843"]
[Declarer "S"]
[Contract "4S"]
[Result "10"]
[Score "NS 620"]
[Auction "E"]
Pass 1S Pass 2S
Pass 4S Pass Pass
Pass
[Play "W"]
HT H4 HJ HA
S3 S6 S5 SA
C2 S8 ST SK
C7 H5 SQ SJ
H3 HK HQ H2
D2 DQ DK D3
CA C3 CQ C6
C9 C4 C5 CK
H6 C8 D4 S9
H7 CT D8 S7
D5 H8 H9 S4
D6 D9 CJ S2
DT DA DJ D7
"#;

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    #[test]
    fn reads_the_example_board() {
        let board = read(EXAMPLE).unwrap();
        assert_eq!(board.board, Board(2));
        assert_eq!(board.dealer, EAST);
        assert_eq!(board.vulnerability, Vulnerability::NorthSouth);
        assert_eq!(board.players[0], "Nils");
        assert_eq!(board.players[3], "Wendy");
        assert_eq!(
            board.deal[SOUTH],
            CardSet::parse_compact("AKJ9742s A2h 73d K6c").unwrap()
        );
        assert_eq!(board.auction.len(), 9);
        let c = board.contract.unwrap().contract().unwrap();
        assert_eq!(c.to_string(), "4S by S");
        assert_eq!(board.tricks, Some(10));
        assert_eq!(board.score, Some(620));
        assert_eq!(north_south_score(Some(c), board.vulnerability, 10), 620);
        assert_eq!(board.play.len(), 52);
        // The play is in the order played: the fourth trick was led by South (the jack of
        // spades), the fifth by East, who won it with the queen.
        assert_eq!(board.play[0], card("TH"));
        assert_eq!(
            &board.play[12..16],
            &[card("JS"), card("7C"), card("5H"), card("QS")]
        );
        assert_eq!(board.play[16], card("QH"));
        // Declarer's side won ten tricks by the rules.
        let mut leader = c.opening_leader();
        let mut ns = 0;
        for trick in board.play.chunks(4) {
            leader = trick_winner(trick, leader, c.bid.strain());
            ns += usize::from(leader.0.is_multiple_of(2));
        }
        assert_eq!(ns, 10);
    }

    #[test]
    fn write_read_write_round_trips() {
        let board = read(EXAMPLE).unwrap();
        let text = write(&board);
        assert_eq!(text, EXAMPLE);
        assert_eq!(read(&text).unwrap(), board);
    }

    #[test]
    fn passed_out_and_unfinished_boards_round_trip() {
        let mut board = read(EXAMPLE).unwrap();
        board.auction = vec![Call::Pass; 4];
        board.contract = Some(AuctionResult::PassedOut);
        board.tricks = None;
        board.score = Some(0);
        board.play.clear();
        let text = write(&board);
        assert!(text.contains("[Contract \"Pass\"]"), "{text}");
        assert!(!text.contains("[Play"));
        assert_eq!(read(&text).unwrap(), board);

        // Two tricks and South's lead to the third, then the board stopped (a claim, say):
        // the row keeps its columns, West first.
        let mut partial = read(EXAMPLE).unwrap();
        partial.play.truncate(9);
        partial.tricks = None;
        partial.score = None;
        let text = write(&partial);
        assert!(text.ends_with("\n- - - SK\n"), "{text}");
        assert_eq!(read(&text).unwrap(), partial);
        assert_eq!(write(&read(&text).unwrap()), text);
    }

    #[test]
    fn reads_what_other_programs_write() {
        let other = EXAMPLE
            .replace(
                "[Event",
                "% exported elsewhere\n{a comment\nover lines}\n[Event",
            )
            .replace("Pass 4S Pass Pass\nPass\n", "Pass 4S! =1= AP ; done\n")
            .replace("HT H4 HJ HA", "HT H4 HJ HA $1")
            .replace("[Score \"NS 620\"]", "[Score \"620\"]\n[Room \"Open\"]");
        let board = read(&other).unwrap();
        assert_eq!(board, read(EXAMPLE).unwrap());
        // A score without a side is declarer's: East-West declaring scores for them.
        assert_eq!(
            read_score(
                "100",
                Some(AuctionResult::Contract(Contract {
                    bid: "1NT".parse().unwrap(),
                    doubled: Doubling::Undoubled,
                    declarer: WEST,
                }))
            ),
            Some(-100)
        );
        assert_eq!(read_score("EW 50", None), Some(-50));
    }

    #[test]
    fn mistakes_are_named() {
        let err = |text: String| read(&text).unwrap_err();
        assert!(matches!(
            err(EXAMPLE.replace("Pass 4S Pass", "Pass 2H Pass")),
            PbnError::IllegalCall { number: 6, .. }
        ));
        assert!(matches!(
            err(EXAMPLE.replace("[Contract \"4S\"]", "[Contract \"3NT\"]")),
            PbnError::ContractMismatch { .. }
        ));
        // West swaps two cards: the heart is a fine discard on the third trick, but the
        // club on the fifth (a heart lead) is a revoke.
        let e = err(EXAMPLE
            .replace("H3 HK HQ H2", "C2 HK HQ H2")
            .replace("C2 S8 ST SK", "H3 S8 ST SK"));
        assert!(matches!(e, PbnError::IllegalPlay { trick: 5, .. }), "{e}");
        assert!(e.to_string().contains("must follow suit"), "{e}");
        assert!(matches!(
            err(EXAMPLE.replace("DT DA DJ D7", "DT DA DJ DK")),
            PbnError::IllegalPlay { trick: 13, .. }
        ));
        assert!(matches!(
            err(EXAMPLE.replace("[Board \"2\"]\n", "")),
            PbnError::MissingTag("Board")
        ));
        assert!(matches!(
            err(EXAMPLE.replace("[Site \"Parlor\"]", "[Site Parlor]")),
            PbnError::BadTagLine(_)
        ));
        assert!(matches!(
            err(EXAMPLE.replace("Pass 1S", "Pass 1Z")),
            PbnError::BadCall(_)
        ));
    }

    #[test]
    fn deals_are_checked_and_round_trip() {
        let text = "N:AKJ9742.A2.73.K6 3.T763.T652.A972 86.K854.AQ9.T843 QT5.QJ9.KJ84.QJ5";
        let deal = parse_deal(text).unwrap();
        assert_eq!(
            deal[NORTH],
            CardSet::parse_compact("AKJ9742s A2h 73d K6c").unwrap()
        );
        assert_eq!(format_deal(&deal, NORTH), text);
        let from_west = format_deal(&deal, WEST);
        assert!(from_west.starts_with("W:QT5.QJ9.KJ84.QJ5 AKJ9742"));
        assert_eq!(parse_deal(&from_west).unwrap(), deal);
        let reason = |t: &str| match parse_deal(t) {
            Err(PbnError::BadDeal { reason, .. }) => reason,
            other => panic!("{other:?}"),
        };
        assert!(
            reason("X:AKJ9742.A2.73.K6 3.T763.T652.A972 86.K854.AQ9.T843 QT5.QJ9.KJ84.QJ5")
                .contains("seat")
        );
        assert!(
            reason("N:AKJ9742.A2.73.K6 3.T763.T652.A972 86.K854.AQ9.T843").contains("four hands")
        );
        assert!(
            reason("N:AKJ9742.A2.73.K 3.T763.T652.A972 86.K854.AQ9.T843 QT5.QJ9.KJ84.QJ56")
                .contains("thirteen")
        );
        assert!(
            reason("N:AKJ9742.A2.73.K6 3.T763.T652.A972 86.K854.AQ9.T843 QT5.QJ9.KJ84.QJ6")
                .contains("twice")
        );
        assert!(
            reason("N:AKJ9742.A2.73.K6 3.T763.T652.A972 86.K854.AQ9.T843 QT5.QJ9.KJ84")
                .contains("four suits")
        );
        assert!(
            reason("N:AKJ9742.A2.73.K6 3.T763.T652.A972 86.K854.AQ9.T843 QT5.QJ9.KJ84.QJ1")
                .contains("rank")
        );
    }

    #[test]
    fn random_deals_round_trip() {
        use rand::SeedableRng;
        use rand::seq::SliceRandom;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..200 {
            let mut cards: Vec<Card> = CardSet::FULL.iter().collect();
            cards.shuffle(&mut rng);
            let mut deal = PerSeat::new(4);
            for (i, hand) in cards.chunks(13).enumerate() {
                deal[Seat(i as u8)] = hand.iter().copied().collect();
            }
            for first in 0..4 {
                assert_eq!(parse_deal(&format_deal(&deal, Seat(first))).unwrap(), deal);
            }
        }
    }
}
