from pathlib import Path
import pytest
from tests.e2e.test_discord_liber import *  # noqa
from tests.e2e.test_discord_every_game import _texts
from tests.e2e.test_discord_liber import _attack_first

@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_dump(fake, tmp_path: Path, locale: str) -> None:
    world = World(fake, tmp_path / "g.db", locale=locale)
    bot = world.make_bot()
    async with fake.running(bot):
        users = [world.alice, world.bob, world.eve]
        live = await people_match(fake, world, bot, users, [menu_list(), ready_list("controle"), ready_list("foi")])
        walker = Walker(fake, bot, live)
        await drive(fake, world, live, rng.seed_state(5, "dump"), lambda: False, pick=_attack_first, walker=walker)
    with open(f"/tmp/e2e_out/dump-{locale}.txt", "w") as f:
        for m in fake.messages.values():
            who = "DM" if m.channel_id != world.chan.id else ("EPH" if m.ephemeral else "CHAN")
            for text in _texts(m):
                f.write(f"--- {who} {m.visible_to}\n{text}\n")
