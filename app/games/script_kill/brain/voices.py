"""How the six seed-000 personas (`app.bots.personas`) sound at a 剧本杀 table, keyed by persona slug.

A text is built from parts (`speech.compose`): an opener in the persona's voice, content sentences, a closer.
Content templates are shared (`SHARED`); a persona adds its own variants in front. Placeholders: `{me}` the
seat's character name, `{who}` another character's name, `{loc}` a location name, `{clue}` a quoted clue,
`{pub}` the first sentence of the seat's public description, `{to}` the name of the character a chat goes to.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.games.brains import Cast


@dataclass(frozen=True)
class Voice:
    """One persona at the 剧本杀 table."""

    slug: str
    noise: float  # how far its suspicion wanders from the evidence (× weights.JITTER)
    chatty: int  # proactive private chats per round it sends (≤ weights.CHATS_PER_ROUND)
    lines: dict[str, tuple[str, ...]] = field(default_factory=dict)


SHARED: dict[str, tuple[str, ...]] = {
    "intro": ("我是{me}", "大家好，我扮演{me}", "在下{me}", "我的角色是{me}"),
    "public": ("{pub}", "简单说，{pub}"),
    "found": ("我在{loc}查到：{clue}", "{loc}里有一条线索：{clue}", "我搜{loc}的时候发现：{clue}"),
    "suspect": ("我觉得{who}嫌疑最大", "目前看{who}最可疑", "我怀疑{who}", "{who}的疑点最多"),
    "reason": ("线索一条条都指向{who}", "{who}的时间线对不上", "关于{who}的线索最多"),
    "clear": ("{who}应该是清白的", "{who}的线索反而能洗清"),
    "defend": ("我的行踪可以说清楚", "我问心无愧", "别急着怀疑我，线索还没齐", "我和这件事没有关系"),
    "nothing": ("我暂时没有新发现", "我这边还没查到关键的东西", "线索还不够，我再听听"),
    "final": ("我的结论是{who}", "我最后投{who}", "综合所有线索，我认为是{who}"),
    "ask": ("{to}，你那晚在哪里", "你查到什么了吗，{to}", "{to}，你怎么看{who}", "我们交换一下线索吧，{to}"),
    "share": ("{to}，告诉你一条线索：{clue}", "{to}，我在{loc}找到：{clue}", "这个给{to}参考：{clue}"),
    "answer_clue": ("{to}，我这边查到的是：{clue}", "回{to}：{clue}", "{to}，我知道的是这个：{clue}"),
    "answer_who": ("我怀疑{who}，你呢，{to}", "{to}，我没什么新东西，但{who}很可疑", "{to}，我们一起盯着{who}"),
    "thanks": ("谢谢你的线索，{to}", "收到，谢了{to}", "好，{to}，我记下了"),
}

ADAI = Voice("adai", noise=0.3, chatty=2, lines={
    "opener": ("我直说吧", "老实讲", "说句实在话", "我这人不会绕弯子"),
    "closer": ("我说完了", "就这些", "大家信我一次"),
    "suspect": ("我看{who}不太对劲", "我就觉得是{who}"),
    "defend": ("我真的是清白的", "我没做亏心事"),
})
LINGLONG = Voice("linglong", noise=0.2, chatty=1, lines={
    "opener": ("我简单说两句", "点到为止", "我只讲线索"),
    "closer": ("言尽于此", "诸位自行判断", "其余的留给大家体会"),
    "suspect": ("{who}身上的疑点耐人寻味", "{who}的说法有缺口"),
    "defend": ("我的故事经得起推敲", "怀疑我的人，不妨先看看线索"),
})
LAOTIE = Voice("laotie", noise=0.5, chatty=2, lines={
    "opener": ("我不同意前面的说法", "杠一句", "别带节奏"),
    "closer": ("谁有意见冲我来", "不服来辩", "我话放这了"),
    "suspect": ("{who}那套说辞我不信", "{who}就是凶手，没得洗"),
    "defend": ("想怀疑我，先拿出证据", "往我身上泼水没用"),
})
NUOMI = Voice("nuomi", noise=1.5, chatty=1, lines={
    "opener": ("诶嘿，轮到我啦", "唔……我想想", "啊咧"),
    "closer": ("嘿嘿，就这样啦", "我说对了吗", "别怀疑我嘛"),
    "suspect": ("{who}好可疑哦", "我总觉得{who}怪怪的"),
    "defend": ("我是好人呀", "呜呜，不是我"),
})
YINGYAN = Voice("yingyan", noise=0.0, chatty=2, lines={
    "opener": ("我梳理一下", "从线索上讲", "先复盘一下"),
    "closer": ("证据就是这些", "结论如上", "以上"),
    "suspect": ("证据指向{who}", "按线索的分量，{who}排第一"),
    "defend": ("我的时间线每一段都有人证物证", "把线索摆出来，我经得起对质"),
})
OSCAR = Voice("oscar", noise=0.8, chatty=2, lines={
    "opener": ("（深吸一口气）各位", "（拍桌）我要说话了", "（站起身）我说两句"),
    "closer": ("这一幕我会记住的", "（鞠躬）我说完了", "天哪，真相就在眼前"),
    "suspect": ("{who}，你的眼神出卖了你", "{who}的演技不过关"),
    "defend": ("（捂住胸口）你们怎么能怀疑我", "天地可鉴，不是我"),
})

CAST = Cast((ADAI, LINGLONG, LAOTIE, NUOMI, YINGYAN, OSCAR), default=YINGYAN, shared=SHARED)  # unknown: 鹰眼
voice, pool = CAST.voice, CAST.pool
