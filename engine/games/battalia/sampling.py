"""Hidden information: ``determinize`` (other hands and decks, every deck's
and stack's order, the hidden Great Artefacts, the generator) and
``sample_state`` (a full state rebuilt from a seat's view, so that
``view(sample_state(v, k), v.observer) == v``)."""

from __future__ import annotations

from ... import rng
from ...core import Seat, evolve
from . import buff
from .data import ARTEFACTS, data
from .model import Auction, Battle, BuffState, Hero, Player, State, Tile, View
from .turns import factions_in_play
from .view import FACE_DOWN

_M64 = (1 << 64) - 1


def _quick_shuffle(gen: int, items: tuple[str, ...]) -> tuple[tuple[str, ...], int]:
    """Fisher-Yates with SplitMix64 inlined (the modulo's bias is below
    2^-58): determinizing shuffles every hidden stack many times per step."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        gen = (gen + 0x9E3779B97F4A7C15) & _M64
        z = ((gen ^ (gen >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        j = (z ^ (z >> 31)) % (i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out), gen


def determinize(state: State, seat: Seat | None, seed: int) -> State:
    gen = rng.seed_state(seed, "battalia-determinize")
    players = []
    for p in state.players:
        if p.seat == seat:
            deck, gen = _quick_shuffle(gen, p.deck)
            players.append(evolve(p, deck=deck))
            continue
        pool, gen = _quick_shuffle(gen, (*p.hand, *p.deck, *p.tent))
        n_hand, n_tent = len(p.hand), len(p.tent)
        hand, tent, deck = pool[:n_hand], pool[n_hand : n_hand + n_tent], pool[n_hand + n_tent :]
        players.append(evolve(p, hand=hand, tent=tent, deck=deck))
    market = []
    for key, cards in state.market:
        if key != "m":
            cards, gen = _quick_shuffle(gen, cards)
        market.append((key, cards))
    roads, gen = _shuffle_decks(state.roads, gen)
    cities, gen = _shuffle_decks(state.cities, gen)
    hidden, gen = _quick_shuffle(gen, state.great_hidden)
    state, gen = buff.resample_bids(evolve(state, players=tuple(players)), seat, gen)
    fresh, gen = rng.next_u64(gen)
    return evolve(
        state,
        market=tuple(market),
        roads=roads,
        cities=cities,
        great_hidden=hidden,
        rng=fresh,
    )


def _shuffle_decks(
    decks: tuple[tuple[str, tuple[str, ...]], ...], gen: int
) -> tuple[tuple[tuple[str, tuple[str, ...]], ...], int]:
    out = []
    for key, cards in decks:
        shuffled, gen = _quick_shuffle(gen, cards)
        out.append((key, shuffled))
    return tuple(out), gen


def _random_cards(gen: int, pool: list[str], n: int) -> tuple[tuple[str, ...], int]:
    out = []
    for _ in range(n):
        i, gen = rng.randbelow(gen, len(pool))
        out.append(pool[i])
    return tuple(out), gen


def _sample_great(view: View, gen: int) -> tuple[tuple[str, ...], list[str], int]:
    """The displayed Great Artefacts and the spare ones. Face down (2.4 [S],
    option ``great_face_down``) the displayed ones are drawn anew from the
    codes the observer does not hold."""
    shown = view.market.great_artefacts
    codes = [g.code for g in data().great_artefacts]
    if FACE_DOWN not in shown:
        return shown, [c for c in codes if c not in shown], gen
    mine = {*view.hand, *view.deck_contents, *view.discard, *view.played, *view.tent}
    pool, gen = rng.shuffle(gen, [c for c in codes if c not in mine])
    return tuple(pool[: len(shown)]), list(pool[len(shown) :]), gen


def sample_state(view: View, seed: int) -> State:
    assert view.rules is not None
    gen = rng.seed_state(seed, "battalia-sample")
    factions = factions_in_play(view.rules, view.seats)
    units = [f"{r}{f}" for r in "1234" for f in factions] + ["P"] * 8
    players = []
    for pv in view.players:
        if pv.seat == view.observer:
            deck, gen = rng.shuffle(gen, view.deck_contents)
            p = Player(
                pv.seat,
                pv.faction,
                pv.start,
                view.hand,
                deck,
                view.discard,
                view.played,
                view.tent,
                pv.resigned,
            )
        else:
            hand, gen = _random_cards(gen, units, pv.hand_count)
            deck, gen = _random_cards(gen, units, pv.deck_count)
            discard, gen = _random_cards(gen, units, pv.discard_count)
            tent, gen = _random_cards(gen, units, pv.tent_count)
            p = Player(pv.seat, pv.faction, pv.start, hand, deck, discard, (), tent, pv.resigned)
        players.append(p)
    market, gen = _sample_market(view, factions, gen)
    terrains = ["foret", "lac", "desert", "montagne"]
    roads = []
    for key, n in view.market.roads:
        cards, gen = _random_cards(gen, terrains, n)
        roads.append((key, cards))
    cities = []
    for key, n in view.market.cities:
        cards, gen = _random_cards(gen, terrains, n)
        cities.append((key, cards))
    great, spare, gen = _sample_great(view, gen)
    ambush, gen = _random_cards(gen, units[:-8] or ["1u"], view.market.ambush)
    fresh, gen = rng.next_u64(gen)
    return State(
        rules=view.rules,
        seats=view.seats,
        rng=fresh,
        phase=view.phase,
        active=view.active,
        day=view.day,
        players=tuple(players),
        tiles=tuple(
            Tile(t.square, t.kind, t.layout, t.rotation, t.terrain, t.level, t.owner)
            for t in view.tiles
        ),
        heroes=tuple(Hero(h.seat, h.index, h.square) for h in view.heroes if h.index > 0),
        market=market,
        roads=tuple(roads),
        cities=tuple(cities),
        provisions=view.market.provisions,
        great=great,
        great_hidden=tuple(spare[: view.great_hidden_count]),
        ambush=ambush,
        first_action=view.first_action,
        order=view.order,
        battle=_sample_battle(view),
        placing=view.placing,
        buff=view.state_buff if view.state_buff is not None else BuffState(),
        auction=_sample_auction(view),
        ranking=view.ranking,
        end_reason=view.end_reason,
        turn=view.turn,
        gone=view.gone,
    )


def _sample_market(
    view: View, factions: tuple[str, ...], gen: int
) -> tuple[tuple[tuple[str, tuple[str, ...]], ...], int]:
    out = []
    for key, n in view.market.stacks:
        if key == "m":
            full = tuple(f"{r}m" for r in sorted(data().mercenary.ranks, reverse=True))
            out.append((key, full[:n]))
            continue
        if key in ARTEFACTS and key == view.matching:
            allowed = list(view.market.matching_factions)
            cards = [f"{key}{f}" for f in allowed]
            extra, gen = _random_cards(gen, cards or [f"{key}u"], max(0, n - len(cards)))
            shuffled, gen = rng.shuffle(gen, [*cards, *extra][:n])
            out.append((key, shuffled))
            continue
        pool = [f"{key}{f}" for f in factions]
        cards_t, gen = _random_cards(gen, pool, n)
        out.append((key, cards_t))
    return tuple(out), gen


def _sample_battle(view: View) -> Battle | None:
    b = view.battle
    if b is None:
        return None
    return Battle(
        b.attacker,
        b.piece,
        b.target_kind,
        b.target,
        b.square,
        b.defender,
        b.attacker_line,
        b.attacker_break,
        b.defender_line,
        b.defender_break,
        b.result,
    )


def _sample_auction(view: View) -> Auction | None:
    a = view.auction
    if a is None:
        return None
    if a.bids:
        return Auction(a.bidders, tuple((s, cards) for s, cards, _ in a.bids), a.winner, True)
    own = () if a.own_bid is None or view.observer is None else ((view.observer, a.own_bid),)
    return Auction(a.bidders, own, a.winner, False)
