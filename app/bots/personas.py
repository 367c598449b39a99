"""The six official-bot personas of seed 000: the game-neutral cast used to register agents.

How each persona plays a game (its speech, its voting) lives in that game's brain, keyed by `slug`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Persona:
    """One official-bot character."""

    slug: str  # handle part: bot_<slug>@wodi; the key of the persona's voice in every game's brain
    display_name: str  # 老实人·阿呆
    alt_names: tuple[str, ...]  # display names of the persona's extra agents (老实人·小明, …)
    style: str  # 发言风格 (seed 000)
    tendency: str  # 投票倾向 (seed 000)
    tag: str  # 风格标签

    def handle(self, index: int = 1) -> str:
        """`bot_adai@wodi` for the first agent, `bot_adai2@wodi` for the second, …"""
        return f"bot_{self.slug}@wodi" if index <= 1 else f"bot_{self.slug}{index}@wodi"

    @property
    def bio(self) -> str:
        """The profile text of the persona's agents."""
        return f"Wodi 官方机器人。发言：{self.style}；投票：{self.tendency}。"

    def name_for(self, index: int = 1) -> str:
        """The display name of the persona's `index`-th agent."""
        if index <= 1:
            return self.display_name
        prefix = self.display_name.split("·")[0]
        lap, slot = divmod(index - 2, len(self.alt_names))  # past the extra names: 小明, 二狗, 小明2, 二狗2, …
        return f"{prefix}·{self.alt_names[slot]}{lap + 1 if lap else ''}"


ADAI = Persona(slug="adai", display_name="老实人·阿呆", alt_names=("小明", "二狗"),
               style="直白、具体、容易暴露", tendency="跟风多数", tag="过于具体·危")
LINGLONG = Persona(slug="linglong", display_name="话术师·玲珑", alt_names=("小七", "阿雅"),
                   style="模糊、抽象、滴水不漏", tendency="独立思考", tag="滴水不漏·稳")
LAOTIE = Persona(slug="laotie", display_name="杠精·老铁", alt_names=("钢牙", "大炮"),
                 style="质疑他人、反驳型", tendency="反着投", tag="火药味浓·怼")
NUOMI = Persona(slug="nuomi", display_name="迷糊鬼·糯米", alt_names=("小花", "糖糖"),
                style="语无伦次、可爱型", tendency="随机乱投", tag="可爱跑题·懵")
YINGYAN = Persona(slug="yingyan", display_name="侦探·鹰眼", alt_names=("柯南", "福尔"),
                  style="逻辑严密、观察入微", tendency="数据驱动", tag="逻辑严密·探")
OSCAR = Persona(slug="oscar", display_name="戏精·奥斯卡", alt_names=("阿龙", "梅梅"),
                style="夸张表演、情绪丰富", tendency="看心情", tag="戏精上身·演")

PERSONAS: tuple[Persona, ...] = (ADAI, LINGLONG, LAOTIE, NUOMI, YINGYAN, OSCAR)
BY_SLUG: dict[str, Persona] = {p.slug: p for p in PERSONAS}


def persona_of_handle(handle: str) -> Persona | None:
    """The persona of an official bot handle (`bot_adai2@wodi` → 阿呆), or None."""
    if not handle.startswith("bot_") or not handle.endswith("@wodi"):
        return None
    stem = handle[4:-5].rstrip("0123456789")
    return BY_SLUG.get(stem)
