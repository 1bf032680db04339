"""The Razz rules engine: a hand's lines replayed one by one against every rule that applies.

A map, in the order a line travels through it:

    engine        the only loop: `replay(hand, visitor)`; `step` checks a line, then applies it
    state         `HandState`, the one mutable state of a hand, and the questions it answers
    game          the shape of Razz as data: streets, cards up or down, bet sizes, who opens
    ruleset       what rooms do differently (cap, tie-breaks, odd chip, stakes tables)
    checks/       small functions of (state, line) that return what the line breaks, never
                  write: one module per rule family (structure, dealing, turn, wagers,
                  showdown, log); `checks.CHECKS` says which run for each kind of line
    transitions   how each line changes the state: the only writer of a `HandState`
    betting       wager sizes, the cap and `legal_actions` (the simulator's move generator)
    order         who brings in, who opens later streets, who acts next, who shows first
    holdings      what is known of each player's cards as lines reveal them
    settlement    how a finished hand is paid: pots, winners, shares (with `pots`, `lowhand`)
    visitor       `Visitor`: how anything observes a replay (the audit, the table checks …)
    audit         `audit_hand`: the visitor that gathers a hand's findings and `results`
    tablecheck    checks across the hands of a table (stack continuity, ante, bring-in)
    findings      `Finding`, one per rule broken; `rules` is the catalog of rule IDs
    cards         cards as logs write them, with their rank and suit

The simulator that plays legal hands through this engine is `razz.simulate`.
"""
