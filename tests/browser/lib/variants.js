// Canned `/api/variants` entries, facts included, for tests that script the server themselves
// (the same shape the real server sends: see docs and the `VariantFacts` of the shared crate).

const HEARTS_OPTIONS = [
  { name: 'target', type: 'integer', min: 1, max: 100000, default: 100, description: 'The match ends when a player reaches this many points.' },
  { name: 'passing', type: 'boolean', default: true, description: 'Pass three cards before each hand.' },
  { name: 'moon', type: 'choice', values: ['add', 'subtract'], default: 'add', description: 'Shooting the moon.' },
];

const base = {
  hand_size: 13, pass_count: 0, prize: 0, partnerships: false, first_lead: 'dealer_left', trump: 'none',
  bad_card_penalty: null, low_score_wins: false, two_totals: false, points_in_hand: true,
};

/** Facts per variant, as `/api/variants` gives them. */
export const FACTS = {
  hearts: { ...base, pass_count: 3, first_lead: 'two_of_clubs', low_score_wins: true, scoring: 'Each heart 1 point, Q♠ 13; lowest total wins.' },
  hearts5: { ...base, hand_size: 10, trump: 'undealt', low_score_wins: true, scoring: 'Each heart 1 point, Q♠ 13; lowest total wins.' },
  filippa: { ...base, pass_count: 3, prize: 36, two_totals: true, points_in_hand: false, scoring: 'Prize points for tricks, penalty points for hearts.' },
  tricks: { ...base, bad_card_penalty: -100, scoring: 'A point per trick.' },
  whist: { ...base, partnerships: true, trump: 'dealer_last', scoring: 'A point per trick over six.' },
};

/** The list `/api/variants` answers with. */
export const VARIANTS = [
  {
    name: 'hearts', description: 'Classic Hearts: pass three cards, avoid hearts and the queen of spades, or take them all.', players: 4,
    options: HEARTS_OPTIONS, strategies: ['random', 'heuristic', 'strong'], facts: FACTS.hearts,
  },
  {
    name: 'whist', description: 'Partners across the table; the dealer\u2019s last card sets trump.', players: 4,
    options: [{ name: 'target', type: 'integer', min: 1, max: 100000, default: 5, description: 'Points to win.' }],
    strategies: ['random', 'heuristic', 'strong'], facts: FACTS.whist,
  },
  {
    name: 'tricks', description: 'Take as many tricks as you can.', players: 4,
    options: [
      { name: 'target', type: 'integer', min: 1, max: 100000, default: 1000, description: 'Points to win.' },
      { name: 'bad_card', type: 'choice', values: ['penalty', 'reject'], default: 'penalty', description: 'An illegal card.' },
    ],
    strategies: ['random', 'heuristic'], facts: FACTS.tricks,
  },
];
