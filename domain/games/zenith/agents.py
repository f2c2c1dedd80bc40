"""The 90 Agent cards of the base game (rules-batch1.md, Appendix A), as data.

Each card: number, planet, faction, credit cost, name, effects left to right. The first
effect is always +1 influence on the card's own planet. Card ids are `zn-agent-01` ...
`zn-agent-90`.
The ten Secret Agent expansion cards (91-100) are not in the base game and not here.
"""

from __future__ import annotations

import msgspec

from domain.games.zenith.effects import (
    ByTechTracks,
    Choice,
    Cost,
    Credits,
    CreditsPerColour,
    Develop,
    DiscardFromHand,
    DiscardHand,
    Effect,
    ExileOpponent,
    Faction,
    Influence,
    Mobilize,
    Neighbours,
    OpponentGains,
    OpponentInfluence,
    Optional,
    Planet,
    ResetDisc,
    Simple,
    TakeBadge,
    TakeBonus,
    Transfer,
    Zenithium,
)

CardId = str


class Agent(msgspec.Struct, frozen=True):
    number: int
    planet: Planet
    faction: Faction
    cost: int
    name: str
    effects: tuple[Effect, ...]


def _exile_own(planet: Planet, reward: Simple, multipliers: tuple[int, ...]) -> Optional:
    """IF you exile 2/4/7 of your own cards of `planet` -> `reward` x multipliers."""
    return Optional(
        cost=Cost(kind="exile_own", planet=planet),
        reward=(reward,),
        tiers=(2, 4, 7),
        multipliers=multipliers,
    )


def _if(kind: str, *reward: Simple, amount: int = 1, **cost: object) -> Optional:
    return Optional(
        cost=msgspec.convert({"kind": kind, **cost}, Cost), reward=reward, tiers=(amount,)
    )


def _must(kind: str, *reward: Simple) -> Optional:
    return Optional(cost=msgspec.convert({"kind": kind}, Cost), reward=reward, mandatory=True)


ANY1 = Influence(1)
ANY2 = Influence(2)
START1 = Influence(1, chain="start")
START2 = Influence(2, chain="start")
OTHER1 = Influence(1, chain="different")
OTHER2 = Influence(2, chain="different")
BADGE = TakeBadge()


def _agent(n: int, planet: Planet, faction: Faction, cost: int, name: str, *rest: Effect) -> Agent:
    return Agent(n, planet, faction, cost, name, (Influence(1, planet), *rest))


AGENTS_LIST: tuple[Agent, ...] = (
    # Mercury
    _agent(1, "mercury", "animod", 1, "Chaka",
           _if("exile_own", Credits(10), amount=2, exclude="mercury")),
    _agent(2, "mercury", "animod", 3, "Amytis",
           _exile_own("mercury", Influence(1, "mercury"), (1, 2, 3))),
    _agent(3, "mercury", "animod", 3, "Atlas", DiscardFromHand(), BADGE),
    _agent(4, "mercury", "animod", 7, "Nero", Zenithium(3)),
    _agent(5, "mercury", "animod", 9, "Khan", START2, _if("give_badge", OTHER2)),
    _agent(6, "mercury", "animod", 10, "Magellan", START1, OTHER1,
           Transfer(planet="mercury"), Transfer(planet="venus"), Transfer(planet="terra"),
           Transfer(planet="mars"), Transfer(planet="jupiter")),
    _agent(7, "mercury", "human", 1, "Lula Smart", Credits(4),
           _if("give_zenithium", Influence(2, "terra"))),
    _agent(8, "mercury", "human", 2, "Secret Kali",
           _if("give_credits", Influence(2, exclude="mercury"), amount=3)),
    _agent(9, "mercury", "human", 3, "Guy Gambler", Credits(5), _if("hold_badge", TakeBonus())),
    _agent(10, "mercury", "human", 5, "Double Joe", Zenithium(2),
           _if("give_badge", Zenithium(2))),
    _agent(11, "mercury", "human", 6, "Master Din", Influence(1, "mars"), BADGE),
    _agent(12, "mercury", "human", 7, "Punk Mari", DiscardHand(), ANY2),
    _agent(13, "mercury", "robot", 1, "Orw3ll", TakeBonus(), _if("give_badge", Credits(7))),
    _agent(14, "mercury", "robot", 2, "H4milt0n", Mobilize(2), _if("give_badge", Mobilize(3))),
    _agent(15, "mercury", "robot", 2, "Wul", _exile_own("mercury", Zenithium(1), (2, 4, 7))),
    _agent(16, "mercury", "robot", 4, "W3lls", _if("hold_badge", Influence(1, "mercury"))),
    _agent(17, "mercury", "robot", 5, "Huxl3y", ANY1, _if("hold_badge", Credits(3))),
    _agent(18, "mercury", "robot", 9, "Cl4rke", START2, _if("give_zenithium", OTHER2)),
    # Venus
    _agent(19, "venus", "animod", 1, "Cresus", Credits(6)),
    _agent(20, "venus", "animod", 2, "Geronimo", CreditsPerColour(per=2, whose="own")),
    _agent(21, "venus", "animod", 2, "Moussa", ByTechTracks(credits=(4, 8, 12))),
    _agent(22, "venus", "animod", 3, "Felis", Zenithium(3), OpponentGains(zenithium=1)),
    _agent(23, "venus", "animod", 3, "Pachacuti",
           _exile_own("venus", Influence(1, "venus"), (1, 2, 3))),
    _agent(24, "venus", "animod", 6, "Archimedes", Develop("animod", discount=1)),
    _agent(25, "venus", "human", 1, "Hiroshi Sun", Credits(4),
           _if("give_zenithium", Influence(2, "mars"))),
    _agent(26, "venus", "human", 1, "Ilda Flores", ByTechTracks(zenithium=(1, 2, 3))),
    _agent(27, "venus", "human", 3, "Stessy Power",
           Optional(cost=Cost(kind="spend_zenithium"), reward=(Influence(1, exclude="venus"),),
                    tiers=(1, 2, 4), multipliers=(1, 2, 3))),
    _agent(28, "venus", "human", 6, "Doc Wissen", Develop("human", discount=1)),
    _agent(29, "venus", "human", 6, "King Harold", Influence(1, "jupiter"), BADGE),
    _agent(30, "venus", "human", 9, "Professor Zed", Zenithium(4)),
    _agent(31, "venus", "robot", 2, "Luc4s", _exile_own("venus", Zenithium(1), (2, 4, 7))),
    _agent(32, "venus", "robot", 4, "C1x1n", _if("hold_badge", Influence(1, "venus"))),
    _agent(33, "venus", "robot", 6, "Br4dbury", Develop("robot", discount=1)),
    _agent(34, "venus", "robot", 6, "V4nV0gt", ExileOpponent(2), Zenithium(2)),
    _agent(35, "venus", "robot", 7, "Buj0ld", Develop("least", free=True)),
    _agent(36, "venus", "robot", 10, "As1m0v", Develop("any", discount=2)),
    # Terra
    _agent(37, "terra", "animod", 1, "Zenon", Credits(8), OpponentGains(credits=2)),
    _agent(38, "terra", "animod", 2, "Elisabeth", DiscardFromHand(), Zenithium(1)),
    _agent(39, "terra", "animod", 3, "Tiberius",
           _exile_own("terra", Influence(1, "terra"), (1, 2, 3))),
    _agent(40, "terra", "animod", 8, "Charlemagne", START1, OTHER1, OTHER1),
    _agent(41, "terra", "animod", 9, "Gilgamesh", ANY2, Influence(2, where="opponent_side")),
    _agent(42, "terra", "animod", 10, "Augustus", Neighbours((1, 2, 1))),
    _agent(43, "terra", "human", 1, "Sneaky Jules", Credits(4),
           _if("give_zenithium", Influence(2, where="centre"))),
    _agent(44, "terra", "human", 4, "Baron Goro", OpponentInfluence(1, exclude="terra"),
           Zenithium(3)),
    _agent(45, "terra", "human", 4, "Ice June", _if("discard_card", ANY1)),
    _agent(46, "terra", "human", 5, "Lord Creep", Influence(1, where="opponent_side"), BADGE),
    _agent(47, "terra", "human", 6, "Helena Kerr", Influence(2, exclude="terra")),
    _agent(48, "terra", "human", 7, "Sir Sam", ResetDisc()),
    _agent(49, "terra", "robot", 1, "Bruss0l0", Zenithium(1)),
    _agent(50, "terra", "robot", 2, "V3rn3", _exile_own("terra", Zenithium(1), (2, 4, 7))),
    _agent(51, "terra", "robot", 4, "M4th3s0n", _if("hold_badge", Influence(1, "terra"))),
    _agent(52, "terra", "robot", 5, "L0v3cr4ft",
           _if("exile_own", Zenithium(1), planet="mercury"),
           _if("exile_own", Zenithium(1), planet="venus"),
           _if("exile_own", Zenithium(1), planet="mars"),
           _if("exile_own", Zenithium(1), planet="jupiter")),
    _agent(53, "terra", "robot", 6, "F4rm3r", START1, OTHER1),
    _agent(54, "terra", "robot", 6, "H3rb3rt",
           _if("exile_own", Influence(1, "mercury"), planet="mercury"),
           _if("exile_own", Influence(1, "venus"), planet="venus"),
           _if("exile_own", Influence(1, "mars"), planet="mars"),
           _if("exile_own", Influence(1, "jupiter"), planet="jupiter")),
    # Mars
    _agent(55, "mars", "animod", 1, "Titus", OpponentInfluence(1, exclude="mars"), Credits(10)),
    _agent(56, "mars", "animod", 2, "Caesar", Choice(((Zenithium(1),), (Credits(7),)))),
    _agent(57, "mars", "animod", 3, "Ramses", Choice(((Transfer(2),), (Credits(8),)))),
    _agent(58, "mars", "animod", 3, "Septimus",
           _exile_own("mars", Influence(1, "mars"), (1, 2, 3))),
    _agent(59, "mars", "animod", 5, "Caligula", _must("transfer_card", ANY1)),
    _agent(60, "mars", "animod", 9, "Domitian", _must("mobilize_card", ANY1),
           _must("mobilize_card", ANY1), _must("mobilize_card", ANY1)),
    _agent(61, "mars", "human", 1, "Jack Curry", Credits(4),
           _if("give_zenithium", Influence(2, "mercury"))),
    _agent(62, "mars", "human", 3, "Little Bob", Influence(1, exclude="mars")),
    _agent(63, "mars", "human", 4, "Charlize Gun", Mobilize(1), Transfer(), ExileOpponent()),
    _agent(64, "mars", "human", 4, "Handy Luke", TakeBonus(face_up=True)),
    _agent(65, "mars", "human", 6, "Don Dune", Influence(1, "venus"), BADGE),
    _agent(66, "mars", "human", 10, "Lady Moore", _must("exile_opponent_card", ANY1),
           _must("exile_opponent_card", ANY1), _must("exile_opponent_card", ANY1)),
    _agent(67, "mars", "robot", 1, "W4ts0n", Credits(5), Mobilize(1)),
    _agent(68, "mars", "robot", 2, "R0bins0n", _exile_own("mars", Zenithium(1), (2, 4, 7))),
    _agent(69, "mars", "robot", 2, "V4nc3", Choice(((Transfer(),), (Zenithium(1),)))),
    _agent(70, "mars", "robot", 4, "Bish0p", _if("hold_badge", Influence(1, "mars"))),
    _agent(71, "mars", "robot", 4, "Mc4ffr3y", Zenithium(2)),
    _agent(72, "mars", "robot", 6, "And3rs0n", Influence(2, where="centre")),
    # Jupiter
    _agent(73, "jupiter", "animod", 1, "Annie", Credits(5), _if("give_badge", Credits(7))),
    _agent(74, "jupiter", "animod", 1, "Ivan", CreditsPerColour(per=2, whose="opponent")),
    _agent(75, "jupiter", "animod", 1, "Suleiman",
           Optional(cost=Cost(kind="spend_credits"), reward=(Influence(1, exclude="jupiter"),),
                    tiers=(3, 7, 12), multipliers=(1, 2, 3))),
    _agent(76, "jupiter", "animod", 3, "Arnulf",
           _exile_own("jupiter", Influence(1, "jupiter"), (1, 2, 3))),
    _agent(77, "jupiter", "animod", 3, "Bajazet",
           Optional(cost=Cost(kind="exile_opponent_card", refund=True))),
    _agent(78, "jupiter", "animod", 3, "Geta", Choice(((TakeBadge(gold=True),), (Credits(8),)))),
    _agent(79, "jupiter", "human", 1, "Agent Ezra", Credits(4),
           _if("give_zenithium", Influence(2, "venus"))),
    _agent(80, "jupiter", "human", 2, "Donald Smooth",
           Optional(cost=Cost(kind="discard_card", refund=True))),
    _agent(81, "jupiter", "human", 2, "Lisa Charity", Zenithium(2), OpponentGains(credits=3)),
    _agent(82, "jupiter", "human", 4, "Captain Andreev",
           Optional(cost=Cost(kind="transfer_card", refund=True))),
    _agent(83, "jupiter", "human", 6, "Milady Jones", Influence(1, "terra"), BADGE),
    _agent(84, "jupiter", "human", 10, "Queen Suzanne", START2, Zenithium(2),
           TakeBadge(gold=True)),
    _agent(85, "jupiter", "robot", 2, "B4rj4v3l", _exile_own("jupiter", Zenithium(1), (2, 4, 7))),
    _agent(86, "jupiter", "robot", 4, "Gibs0n", Transfer(2), _if("give_badge", Transfer(2))),
    _agent(87, "jupiter", "robot", 4, "M4rt1n", _if("hold_badge", Influence(1, "jupiter"))),
    _agent(88, "jupiter", "robot", 5, "Pkd1ck", ANY1, _if("hold_badge", Zenithium(1))),
    _agent(89, "jupiter", "robot", 8, "Ch4mb3rs", Zenithium(3), _if("hold_badge", Zenithium(1))),
    _agent(90, "jupiter", "robot", 8, "Th0mps0n", START2,
           _if("have_credits", OTHER1, amount=6)),
)  # fmt: skip

AGENTS: dict[CardId, Agent] = {f"zn-agent-{a.number:02d}": a for a in AGENTS_LIST}
"""Every card by id."""
