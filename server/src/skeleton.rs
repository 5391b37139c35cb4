//! A name's skeleton: what it looks like, so that two names a reader cannot tell apart compare
//! equal. Registered bot names are unique by it, the bot directory finds bots by it, and a
//! person's name is checked against the reserved words by it. It is NFKC, full case folding and
//! Unicode TR39's confusable mapping, taken once of the name in capitals and again in small
//! letters, because Greek and Cyrillic letters pass for Latin ones in one case only; marks stay
//! (`Zoë` is not `Zoe`). Being one name is transitive, so `Ali` and `All` are one name (through
//! `AlI`): refusing a name is the safe side to err on. A skeleton is a key, never shown, and
//! follows the crates' Unicode data, so stored ones are recomputed when the store opens. It owns
//! no rule of what a name may be: only when two look the same.

use caseless::Caseless;
use unicode_normalization::UnicodeNormalization;
use unicode_security::confusable_detection::skeleton as tr39;

/// The skeleton of `name`: equal for names that look the same.
#[must_use]
pub fn skeleton(name: &str) -> String {
    let folded: String = name.nfkc().default_case_fold().collect();
    // Capitals first: TR39 maps Greek and Cyrillic capitals to Latin ones.
    let capitals = folded.to_uppercase();
    let once: String = tr39(&capitals).default_case_fold().collect();
    // Then small letters, for those that look Latin only when small.
    tr39(&once).default_case_fold().nfc().collect()
}

/// True when `a` and `b` look the same (have one skeleton).
#[must_use]
pub fn same(a: &str, b: &str) -> bool {
    a == b || skeleton(a) == skeleton(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_look_the_same_have_one_skeleton() {
        for (a, b) in [
            ("Åsa", "åsa"),
            ("A\u{30A}sa", "Åsa"),
            ("Ｄeep Queen", "Deep Queen"),
            ("DEEP QUEEN", "deep queen"),
            ("Ｂｏｔ", "bot"),
            ("b\u{3BF}t", "bot"),                     // Greek small omicron
            ("𝐛𝐨𝐭", "bot"),                           // mathematical bold
            ("H\u{3BF}st", "host"),                   // Greek small omicron
            ("h0st", "host"),                         // TR39: the digit zero is the letter O
            ("\u{41D}\u{41E}\u{405}\u{422}", "HOST"), // Cyrillic capitals
            ("\u{4BB}ost", "host"),                   // Cyrillic small shha
            ("Straße", "STRASSE"),
            ("modern", "rnodern"),
            ("Ian", "lan"),
            ("Ali", "All"), // see the module's doc
            ("AlI", "All"),
            ("a\u{200B}b", "ab"), // zero-width space
        ] {
            assert_eq!(skeleton(a), skeleton(b), "{a:?} and {b:?}");
            assert!(same(a, b), "{a:?} and {b:?}");
        }
    }

    #[test]
    fn different_names_stay_apart() {
        for (a, b) in [
            ("Anna", "Ana"),
            ("Zoë", "Zoe"),
            ("Rene", "René"),
            ("bot", "bat"),
            ("Deep Queen", "DeepQueen"),
            ("Deep Queen", "Deep-Queen"),
        ] {
            assert_ne!(skeleton(a), skeleton(b), "{a:?} and {b:?}");
            assert!(!same(a, b), "{a:?} and {b:?}");
        }
    }

    #[test]
    fn a_skeleton_has_no_case_and_is_its_own_skeleton() {
        for name in ["Åsa", "Ｄeep Queen", "𝐛𝐨𝐭", "h0st", "Straße", "Zoë"] {
            let key = skeleton(name);
            assert_eq!(key, skeleton(&key.to_uppercase()), "{name:?}");
            assert_eq!(key, skeleton(&key), "{name:?}");
        }
    }
}
