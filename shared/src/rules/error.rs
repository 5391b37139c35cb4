//! Why an action was refused, in words a player understands.

use thiserror::Error;

use crate::card::{Card, Suit};
use crate::seat::Seat;

/// An action the rules do not allow. The game is unchanged when one is returned.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RuleError {
    /// Someone else has to act.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The table has no such seat.
    #[error("there is no {0} at this table")]
    NoSuchSeat(Seat),
    /// A card was played while cards are being passed.
    #[error("cards are being passed now: choose the cards to pass")]
    PassingNow,
    /// Cards were passed while tricks are being played.
    #[error("there is no passing now: play a card")]
    NotPassingNow,
    /// The match has ended.
    #[error("the match is over")]
    MatchOver,
    /// The card is not in the player's hand.
    #[error("you do not hold the {}", .0.name())]
    CardNotHeld(Card),
    /// The player holds the led suit but played another.
    #[error("you must follow suit: you hold {}", .0.a_card_of())]
    MustFollowSuit(Suit),
    /// Hearts: the first trick is led with the two of clubs.
    #[error("the two of clubs must lead the first trick")]
    MustLeadTwoOfClubs,
    /// Hearts: no heart lead before hearts are broken, unless that is all one holds.
    #[error("hearts are not broken yet: lead another suit")]
    HeartsNotBroken,
    /// Hearts: no point card on the first trick while holding another card.
    #[error("no heart and not the queen of spades on the first trick while you hold another card")]
    NoPointsOnFirstTrick,
    /// UVa 181: a player who cannot follow suit must trump.
    #[error("you cannot follow suit, so you must trump: you hold {}", .0.a_card_of())]
    MustTrump(Suit),
    /// A pass of the wrong size.
    #[error("pass exactly {expected} cards, not {got}")]
    WrongPassCount {
        /// Cards a pass must have.
        expected: u32,
        /// Cards given.
        got: usize,
    },
    /// The same card twice in one pass.
    #[error("the {} is in your pass twice", .0.name())]
    DuplicateInPass(Card),
    /// A second pass in the same hand.
    #[error("you have already passed this hand")]
    AlreadyPassed,
    /// A card or a pass while the players are bidding.
    #[error("the players are bidding now: make your bid")]
    BiddingNow,
    /// A bid outside the bidding.
    #[error("there is no bidding now")]
    NotBiddingNow,
    /// A bid outside the range allowed.
    #[error("bid between {min} and {max}")]
    BidOutOfRange {
        /// The lowest bid allowed.
        min: u8,
        /// The highest.
        max: u8,
    },
    /// Oh Hell's hook: the dealer's bid may not make the bids add up to the tricks.
    #[error("the dealer may not bid {bid}: the bids would add up to the tricks ({tricks})")]
    BidsWouldAddUp {
        /// The bid refused.
        bid: u8,
        /// The tricks in the hand.
        tricks: u8,
    },
    /// Spades: no spade lead before spades are broken, unless that is all one holds.
    #[error("spades are not broken yet: lead another suit")]
    SpadesNotBroken,
    /// Blind nil is not among this table's rules.
    #[error("blind nil is not played at this table")]
    NoBlindNil,
    /// Blind nil is only for a side far enough behind.
    #[error("blind nil is allowed only for a side behind by {behind} or more")]
    BlindNilNotBehind {
        /// How far behind a side must be.
        behind: i32,
    },
    /// One blind nil a side.
    #[error("your partner has bid blind nil: one blind nil a side")]
    PartnerBidBlind,
    /// Blind nil is bid before looking.
    #[error("blind nil is bid before looking at your cards, and you have seen them")]
    CardsAlreadySeen,
    /// A bid or a look from a seat whose cards are face down and has not chosen.
    #[error("your cards are face down: bid blind nil, or look at them first")]
    CardsFaceDown,
    /// A card, pass or bid while partners exchange cards after a blind nil.
    #[error("the blind nil bidder and their partner are exchanging cards now")]
    ExchangingNow,
    /// An exchange outside one.
    #[error("there is no exchange of cards now")]
    NotExchangingNow,
    /// A card, pass or bid while trump is being made.
    #[error("trump is being made now: order up, name a suit or pass")]
    CallingNow,
    /// A call while trump is not being made.
    #[error("trump is not being made now")]
    NotCallingNow,
    /// A card or call while the dealer discards.
    #[error("the dealer is discarding now")]
    DiscardingNow,
    /// A discard outside the dealer's discard.
    #[error("there is no discard now")]
    NotDiscardingNow,
    /// Euchre's first round: the turned-up card may be ordered up or passed, not a suit named.
    #[error(
        "order up the turned-up card or pass: a suit is named only once everyone has passed it"
    )]
    OrderUpOrPass,
    /// Euchre's second round: the turned-up card was passed by everyone.
    #[error("everyone passed the turned-up card: name a suit or pass")]
    NameOrPass,
    /// Euchre's second round: the turned-up card's suit may not be named.
    #[error("everyone passed {}: name another suit", .0.name())]
    TurnedSuitPassed(Suit),
    /// Stick the dealer: the dealer may not pass in the second round.
    #[error("the dealer must name trump: stick the dealer")]
    DealerMustName,
    /// Going alone is not among this table's rules.
    #[error("going alone is not played at this table")]
    NoGoingAlone,
    /// Defending alone is for a defender, once trump is made, at a table that plays it.
    #[error("only a defender may defend alone, once trump is made, at a table that plays it")]
    NoDefendingAlone,
    /// A call another game makes (order up, name a suit, defend alone at a Bridge table).
    #[error("that call is not part of this game: pass, bid, double or redouble")]
    NotThisGamesCall,
    /// Bridge: a bid must be higher than the last one.
    #[error("bid higher than the last bid: {0} or above")]
    BidTooLow(crate::bridge::Bid),
    /// Bridge: after seven no trump nobody may bid.
    #[error("seven no trump has been bid: pass, double or redouble")]
    NoHigherBid,
    /// Bridge: only the opponents' last bid, not yet doubled, may be doubled.
    #[error("you may double only the opponents' last bid, once")]
    CannotDouble,
    /// Bridge: only a double of one's own side's bid may be redoubled.
    #[error("you may redouble only the opponents' double of your side's bid")]
    CannotRedouble,
    /// Bridge: declarer plays dummy's cards.
    #[error("you are dummy: declarer plays your cards")]
    DummyDoesNotPlay,
    /// Bridge: only declarer claims, during the play, on their or dummy's turn.
    #[error("only declarer may claim, during the play, on declarer's or dummy's turn")]
    NotDeclarersClaim,
    /// Bridge: a claim is for at most the tricks still to play.
    #[error("only {remaining} tricks are left to play")]
    ClaimTooLarge {
        /// The tricks still to play.
        remaining: u8,
    },
    /// Bridge: the defenders answer a claim before play goes on.
    #[error("declarer has claimed: the defenders accept or reject the claim first")]
    ClaimPending,
    /// Bridge: there is no claim to answer, or it is not the seat's to answer.
    #[error("there is no claim for you to answer")]
    NoClaimToAnswer,
}

impl RuleError {
    /// A stable machine-readable code for the error.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            RuleError::NotYourTurn => "not_your_turn",
            RuleError::NoSuchSeat(_) => "no_such_seat",
            RuleError::PassingNow => "passing_now",
            RuleError::NotPassingNow => "not_passing_now",
            RuleError::MatchOver => "match_over",
            RuleError::CardNotHeld(_) => "card_not_held",
            RuleError::MustFollowSuit(_) => "must_follow_suit",
            RuleError::MustLeadTwoOfClubs => "must_lead_two_of_clubs",
            RuleError::HeartsNotBroken => "hearts_not_broken",
            RuleError::NoPointsOnFirstTrick => "no_points_on_first_trick",
            RuleError::MustTrump(_) => "must_trump",
            RuleError::WrongPassCount { .. } => "wrong_pass_count",
            RuleError::DuplicateInPass(_) => "duplicate_in_pass",
            RuleError::AlreadyPassed => "already_passed",
            RuleError::BiddingNow => "bidding_now",
            RuleError::NotBiddingNow => "not_bidding_now",
            RuleError::BidOutOfRange { .. } => "bid_out_of_range",
            RuleError::BidsWouldAddUp { .. } => "bids_would_add_up",
            RuleError::SpadesNotBroken => "spades_not_broken",
            RuleError::NoBlindNil => "no_blind_nil",
            RuleError::BlindNilNotBehind { .. } => "blind_nil_not_behind",
            RuleError::PartnerBidBlind => "partner_bid_blind",
            RuleError::CardsAlreadySeen => "cards_already_seen",
            RuleError::CardsFaceDown => "cards_face_down",
            RuleError::ExchangingNow => "exchanging_now",
            RuleError::NotExchangingNow => "not_exchanging_now",
            RuleError::CallingNow => "calling_now",
            RuleError::NotCallingNow => "not_calling_now",
            RuleError::DiscardingNow => "discarding_now",
            RuleError::NotDiscardingNow => "not_discarding_now",
            RuleError::OrderUpOrPass => "order_up_or_pass",
            RuleError::NameOrPass => "name_or_pass",
            RuleError::TurnedSuitPassed(_) => "turned_suit_passed",
            RuleError::DealerMustName => "dealer_must_name",
            RuleError::NoGoingAlone => "no_going_alone",
            RuleError::NoDefendingAlone => "no_defending_alone",
            RuleError::NotThisGamesCall => "not_this_games_call",
            RuleError::BidTooLow(_) => "bid_too_low",
            RuleError::NoHigherBid => "no_higher_bid",
            RuleError::CannotDouble => "cannot_double",
            RuleError::CannotRedouble => "cannot_redouble",
            RuleError::DummyDoesNotPlay => "dummy_does_not_play",
            RuleError::NotDeclarersClaim => "not_declarers_claim",
            RuleError::ClaimTooLarge { .. } => "claim_too_large",
            RuleError::ClaimPending => "claim_pending",
            RuleError::NoClaimToAnswer => "no_claim_to_answer",
        }
    }
}
