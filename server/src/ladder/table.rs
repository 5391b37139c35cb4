//! One ladder match: a table opened through the lobby, its seats filled (built-in strategies
//! by the table's own command, registered bots by invitation), played to its end, closed.
//!
//! A registered bot is invited like a host would invite it, but the ladder hears the answer
//! on a channel ([`Inviter::Server`]). A bot that declines, lets the invitation lapse, or goes
//! offline meanwhile is replaced by the substitute built-in strategy, and the match is played
//! anyway: the other entrants' game still counts (the ratings are per match), and a bot that
//! keeps declining simply plays no ladder matches.

use parlor_shared::protocol::{CreateTable, InviteState, TableOptions};
use parlor_shared::{Options, Seat, Variant};
use tokio::sync::mpsc;

use super::entrants::Entrant;
use crate::lobby::Inviter;
use crate::table::{AdminCommand, Invitable, TableHandle};

/// How a ladder match went.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Played {
    /// It was played to its end.
    pub finished: bool,
    /// Registered bots that took their seat.
    pub invited: u32,
    /// Registered bots that did not (declined, lapsed, offline): a built-in played instead.
    pub substituted: u32,
}

/// Plays one ladder match of `variant` with the deal `seed`, `seats[i]` in seat `i`; a
/// registered bot that does not take its seat is replaced by `substitute`.
pub async fn play_one(
    venue: super::Venue<'_>,
    variant: Variant,
    options: &Options,
    seed: u64,
    seats: &[Entrant],
    substitute: &str,
) -> Played {
    let lobby = venue.lobby;
    let mut played = Played::default();
    let request = CreateTable {
        variant,
        options: options.clone(),
        table_options: TableOptions {
            name: Some("Ladder".into()),
            ..TableOptions::default()
        },
        seed: Some(seed),
        pbn: None,
    };
    let info = match lobby.create(request) {
        Ok((info, _host_key)) => info,
        Err(err) => {
            tracing::warn!(%err, "the ladder could not open a table");
            return played;
        }
    };
    let Some(table) = lobby.get(&info.id) else {
        return played;
    };
    // Built-ins first: the table has someone at it while the invitations are out.
    for (i, entrant) in seats.iter().enumerate() {
        if let Entrant::Builtin(strategy) = entrant
            && !add_bot(&table, Seat(i as u8), strategy).await
        {
            return played;
        }
    }
    let invitable = Invitable {
        variant,
        options: info.options.clone(),
    };
    let (id, invitable) = (&table.id, &invitable);
    let invitations = seats
        .iter()
        .enumerate()
        .filter_map(|(i, entrant)| match entrant {
            Entrant::Remote(name) => Some(async move {
                let seat = Seat(i as u8);
                (seat, invite(venue, id, seat, invitable, name).await)
            }),
            Entrant::Builtin(_) => None,
        });
    for (seat, taken) in futures_util::future::join_all(invitations).await {
        if taken {
            played.invited += 1;
        } else {
            played.substituted += 1;
            if !add_bot(&table, seat, substitute).await {
                return played;
            }
        }
    }
    if table.admin(AdminCommand::Start).await.is_err() {
        tracing::warn!(table = %crate::store::log_tag(&info.id), "the ladder could not start its match");
        return played;
    }
    played.finished = table.finished(1).await.is_some();
    let _ = table
        .admin(AdminCommand::Close {
            reason: Some("the ladder match is over".into()),
        })
        .await;
    played
}

/// Seats the built-in `strategy`; says whether it sat down.
async fn add_bot(table: &TableHandle, seat: Seat, strategy: &str) -> bool {
    let command = AdminCommand::AddBot {
        seat,
        strategy: strategy.to_string(),
    };
    match table.admin(command).await {
        Ok(()) => true,
        Err(err) => {
            tracing::warn!(table = %crate::store::log_tag(&table.id), %seat, ?err, "the ladder could not seat a bot");
            false
        }
    }
}

/// Invites the registered bot `name` to `seat` and waits for its answer (the directory's
/// timeout bounds it); says whether the bot took the seat.
async fn invite(
    venue: super::Venue<'_>,
    table: &str,
    seat: Seat,
    invitable: &Invitable,
    name: &str,
) -> bool {
    let lobby = venue.lobby;
    let bots = lobby.bots();
    // An account revoked while its bot was online goes offline now, as for a host.
    if lobby.drop_if_revoked(name).await {
        return false;
    }
    let (tx, mut rx) = mpsc::unbounded_channel();
    let inviter = Inviter::Server(tx);
    // A bot online on another node of the cluster is invited through its node.
    let elsewhere = match venue.cluster {
        Some(cluster) if !bots.is_online(name) => cluster
            .find_bot(name, invitable.variant)
            .await
            .map(|found| (cluster, found)),
        _ => None,
    };
    let sent = match elsewhere {
        Some((cluster, found)) => cluster
            .invite_through(bots, &found, table, seat, invitable, inviter)
            .await
            .map_err(|refused| refused.message),
        None => bots
            .invite(name, table, seat, invitable, inviter)
            .map_err(|err| err.to_string()),
    };
    if let Err(err) = sent {
        tracing::info!(bot = name, %err, "the ladder could not invite a bot");
        return false;
    }
    // The invitation lapses after the directory's timeout (and the join after it is the
    // table's to answer): the margin only guards against a status that never comes.
    let patience = bots.timeout() + std::time::Duration::from_secs(30);
    let answer = tokio::time::timeout(patience, async {
        while let Some(state) = rx.recv().await {
            match state {
                InviteState::Sent => {}
                InviteState::Accepted => return true,
                InviteState::Declined | InviteState::Expired | InviteState::Cancelled => {
                    return false;
                }
            }
        }
        false
    })
    .await;
    let taken = answer.unwrap_or(false);
    if !taken {
        tracing::info!(bot = name, table = %crate::store::log_tag(table), %seat, "a ladder invitation was not taken up");
    }
    taken
}
