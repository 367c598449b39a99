"""The undercover voices of the six official-bot personas (seed 000), keyed by persona slug.

The cast itself (names, handles, style labels) is game-neutral and lives with the bots (`app.bots.personas`);
this is how each of them plays 谁是卧底: the parts its speeches are built from, clue choice, blending in as
undercover, voting, and what its vote comments may claim.

A speech is assembled from parts (`speaking`): maybe a situation line (first speaker, PK, voted last round,
a civilian just voted out, one undercover left), maybe an opener, maybe a reaction naming a seat and what it
said, the persona's own move (老铁 challenges the previous speaker, 鹰眼 sums everyone up, 玲珑 steers the
topic, 糯米 forgets her word and rambles, 奥斯卡 acts, 阿呆 panics as undercover), the clue sentence, maybe a
closer. A seat never uses the same part twice in a game, so no sentence of it recurs.

Parts are `str.format` templates. Placeholders: `{clue}` / `{clue2}` (clue phrases of the bot's word),
`{tag}` (the word's category, a round-1 hint that gives little away), `{seat}` / `{phrase}` (a seat and a
phrase it said), `{prev}` / `{prev_phrase}` (the previous speaker and its phrase), `{summary}` (several
seats and their phrases), `{suspect}` (the seat this bot suspects most), `{voters}` (who voted it out),
`{out}` (the seat voted out last round), `{votes}` (votes this seat got last round). A part is used only
when every placeholder it names has a value, and every text is checked against the bot's own word.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.games.brains import Cast


@dataclass(frozen=True)
class Voting:
    """How a persona bends the suspicion ranking into one vote (probabilities, tried in this order).

    - `random`: vote uniformly at random.
    - `revenge`: vote for a seat that voted for me in the previous round.
    - `boring`: vote for the seat whose speeches said the least.
    - otherwise rank by suspicion + `follow` × (share of this round's votes already on the seat)
      − `contrarian` × that share, and take the first with probability `top`, the second with `second`,
      else the third (or a random one).
    """

    top: float
    second: float
    follow: float = 0.0
    contrarian: float = 0.0
    random: float = 0.0
    revenge: float = 0.0
    boring: float = 0.0


@dataclass(frozen=True)
class Voice:
    """How one persona plays undercover: its parts, its odds of using them, its clue choice and its vote."""

    slug: str  # the persona slug (`app.bots.personas.Persona.slug`)
    clue_pick: str  # "specific" (longest clue), "vague" (shortest) or "random"
    blend: float  # undercover: chance to borrow the majority's clue (or echo) instead of an own clue
    vague_first: float  # civilian: chance to give only the category in round 1 (keeps a blank guessing)
    voting: Voting
    openers: tuple[str, ...]
    clue: tuple[str, ...]  # the clue sentence ({clue})
    clue_undercover: tuple[str, ...]  # the clue sentence when holding the undercover word
    clue_two: tuple[str, ...]  # two clues at once ({clue}, {clue2})
    category: tuple[str, ...]  # round-1 hint at the category only ({tag})
    echo: tuple[str, ...]  # no own clue: lean on a phrase someone said ({seat}, {phrase})
    agree: tuple[str, ...]  # a reaction naming a seat and its phrase ({seat}, {phrase})
    doubt: tuple[str, ...]  # a doubt about a seat ({suspect})
    special: tuple[str, ...]  # the persona's own move
    special_undercover: tuple[str, ...]  # … when holding the undercover word
    closers: tuple[str, ...]
    last_words: tuple[str, ...]  # ({voters}, {suspect})
    vote: dict[str, tuple[str, ...]] = field(default_factory=dict)  # comment templates by claim
    p_open: float = 0.4
    p_react: float = 0.5  # from round 2 on (half as often in round 1)
    p_special: float = 0.5
    p_close: float = 0.35


# Situation lines every persona may use (one at most per speech), by situation.
SITUATION: dict[str, tuple[str, ...]] = {
    "first": ("我第一个说，没得参考。", "打头阵，我先抛砖。", "第一个发言最吃亏，我尽量说清楚。",
              "先开个头。", "那我先来，后面的接着补。", "没人说过，那我起个头。", "我来破冰。",
              "头一个，压力好大。", "开局我先讲。", "我先说一个方向。", "起手先来。", "我打个样。"),
    "pk": ("平票了，我再说一次。", "PK就PK，我身正不怕影子斜。", "又轮到我辩解了。", "PK环节我多说一点。",
           "跟我平票那位，咱们摆事实。", "我不想被冤枉，再补一句。", "加赛就加赛。", "这次说具体些。",
           "平票说明大家还拿不准。", "我把话说明白。", "最后机会，听我讲。", "票一样多，那就看描述。"),
    "defend": ("上轮{votes}票投我，我理解，但我是好人。", "被投了{votes}票，我再说清楚点。",
               "上一轮{votes}票冲我来，我解释一下。", "{votes}票？好吧，我换个说法。",
               "别盯着我了，上轮{votes}票投错了。",
               "上轮我吃了{votes}票，这轮看清楚。", "我知道上轮{votes}票都在我身上。", "冲我的{votes}票我记下了。",
               "上轮有{votes}票给我，这次我证明自己。", "{votes}票砸过来，我顶住。"),
    "civilian_out": ("上轮出局的{out}号是平民，我们投错了。", "{out}号是好人，唉，白白送走一个。",
                     "{out}号翻出来是平民，卧底还在。", "冤了{out}号，这轮得认真。", "送走{out}号太亏了。",
                     "{out}号居然是平民，得重新捋一捋。", "错投了{out}号，卧底在偷笑。", "为{out}号默哀三秒。",
                     "{out}号的票白投了，这轮别再跟错。", "{out}号走得冤。"),
    "undercover_out": ("{out}号是卧底，干得漂亮。", "抓到{out}号了，继续。", "{out}号果然有问题。",
                       "{out}号出局是对的。", "{out}号的词确实不一样。", "好，{out}号现形了。"),
    "stall": ("该说的我都说了。", "我的线索前面都给过了。", "我没有新东西了，听大家的。", "前面说的就是全部。",
              "我先不补充了。", "再说就露馅了。", "这轮我保守一点。", "我的意思没变。", "我还是之前的看法。",
              "不重复了，大家回看我的发言。", "我这轮少说。", "线索给够了，看你们的。"),
    "last_one": ("只剩最后一个卧底了，别放过。", "最后一个卧底就在我们中间。", "就差一个卧底了。",
                 "还剩一个卧底，这轮是关键。", "卧底只剩一个，胜负就在这轮。", "再抓一个就赢了。"),
}

# Shared tail of every persona's vote comments, by claim (a comment is only chosen when its claim is true).
VOTE_COMMON: dict[str, tuple[str, ...]] = {
    "majority": ("大家都投{target}号，我也投。", "多数人选了{target}号，我跟。", "跟票{target}号。",
                 "票都在{target}号身上，我补一票。", "大伙都指向{target}号，我同意。"),
    "first": ("第一票，{target}号。", "我先投{target}号。", "头一票给{target}号。"),
    "nobody": ("没人投{target}号？我来。", "{target}号还没人投，我投。"),
    "contrarian": ("不跟风，我投{target}号。", "偏不跟，{target}号。", "唱反调，投{target}号。"),
    "revenge": ("{target}号投了我，我投回去。", "{target}号上轮投了我，礼尚往来。"),
    "quiet": ("{target}号话最少，投他。", "{target}号说得最少，可疑。"),
    "quote": ("{target}号那句「{quote}」对不上。", "{target}号说「{quote}」，我不认同。"),
}

ADAI = Voice(
    slug="adai", clue_pick="specific", blend=0.2, vague_first=0.15,
    voting=Voting(top=0.8, second=0.12, follow=0.6, random=0.03),
    openers=("我说实话啊，", "嗯，", "我是老实人，", "那个，", "直说吧，", "俺想想，", "好嘞，", "我嘴笨，",
             "简单讲，", "我就实话实说，", "行，", "呃，轮到我了，", "我不会绕弯子，", "老实讲，"),
    clue=("{clue}。", "就是{clue}。", "它{clue}。", "最明显的是{clue}。", "我想到{clue}。", "一看就{clue}。",
          "俺觉得{clue}。", "{clue}，一听就懂。", "说白了{clue}。", "明摆着{clue}。", "反正{clue}。",
          "比方说{clue}。", "{clue}，没错。", "具体点：{clue}。"),
    clue_undercover=("呃……{clue}？", "{clue}……应该对吧？", "我、我说{clue}。", "那个……{clue}。",
                     "{clue}！没说错吧……", "大概……{clue}。", "啊，{clue}，对。", "{clue}……吧。",
                     "嗯嗯，{clue}。", "就、就{clue}。"),
    clue_two=("{clue}，还有{clue2}。", "{clue}，而且{clue2}。", "一是{clue}，二是{clue2}。",
              "{clue}，另外{clue2}。", "{clue}，再加上{clue2}。", "{clue}；{clue2}也算。"),
    category=("跟{tag}有关。", "属于{tag}一类。", "算{tag}吧。", "是{tag}方面的。", "{tag}里的。",
              "往{tag}那边想。"),
    echo=("跟{seat}号差不多，{phrase}。", "我同{seat}号，{phrase}。", "{seat}号说的{phrase}，我也这么想。",
          "{phrase}，{seat}号说到点子上了。", "就像{seat}号讲的，{phrase}。", "我也是{phrase}。"),
    agree=("{seat}号说的{phrase}我同意。", "{seat}号讲{phrase}，对的。", "我赞成{seat}号的{phrase}。",
           "{seat}号那个{phrase}没毛病。", "{seat}号说{phrase}，跟我想的一样。", "{phrase}？{seat}号说得在理。",
           "听{seat}号说{phrase}，我放心了。", "{seat}号的{phrase}挺实在。"),
    doubt=("{suspect}号有点怪。", "{suspect}号说的我没听懂。", "我看{suspect}号不太对。", "{suspect}号是不是说偏了？",
           "{suspect}号跟我们不一样吧？", "我有点怀疑{suspect}号。", "{suspect}号那个我对不上。"),
    special=("我这人不会装。", "大家信我一次。", "我说的都是真的。", "俺从不撒谎。", "你们别笑我。",
             "我就怕说得太明白。", "说多了又怕暴露。", "我紧张的时候话多。"),
    special_undercover=("我、我没紧张！", "手心出汗了……", "别看我啊……", "我心跳好快。", "我是不是说错了？",
                        "你们干嘛盯着我？", "我、我很正常的！", "冷静，冷静……", "完了我脑子一片空白。",
                        "我真的真的是好人！", "我没慌，就是有点热。", "谁、谁在看我？"),
    closers=("就这些。", "说完了。", "我说完啦。", "没别的了。", "好了。", "就这样。", "完毕。", "下一个。",
             "俺讲完了。", "大概就这。"),
    last_words=("啊？怎么就投我了……", "我说的都是实话啊！", "我是老实人，冤枉啊。", "{voters}号，你们投错了……",
                "大家再看看{suspect}号吧……", "我不明白……我说得很清楚啊。", "{voters}号，我哪里不对了？",
                "我走了，{suspect}号你们盯紧点。", "唉，早知道少说两句。", "我真的没骗人……"),
    vote={"plain": ("投{target}号。", "我选{target}号。", "{target}号吧。", "就{target}号了。"),
          "suspect": ("{target}号说得有点对不上。", "我觉得{target}号怪怪的。", "{target}号不像我们。")},
    p_open=0.45, p_react=0.5, p_special=0.3, p_close=0.35,
)

LINGLONG = Voice(
    slug="linglong", clue_pick="vague", blend=0.75, vague_first=0.6,
    voting=Voting(top=0.5, second=0.3, random=0.05),
    openers=("点到为止，", "不必说透，", "换个角度，", "我只提一点，", "懂的人自然懂，", "说多无益，",
             "言简意赅，", "意会即可，", "留点余地，", "我说得克制些，", "分寸很重要，", "浅谈一句，",
             "只可意会，", "抛开表象，"),
    clue=("{clue}。", "关键在{clue}。", "无非{clue}。", "{clue}，仅此而已。", "要点：{clue}。", "本质是{clue}。",
          "{clue}，余下自悟。", "一言以蔽之，{clue}。", "线索是{clue}。", "{clue}，够了。", "不过{clue}。",
          "{clue}，点到即止。", "可以说{clue}。"),
    clue_undercover=("{clue}，大家心里有数。", "{clue}，不多讲。", "{clue}，这就够了。", "姑且说{clue}。",
                     "我的理解：{clue}。", "{clue}，见仁见智。", "或许{clue}。", "{clue}，言尽于此。"),
    clue_two=("{clue}，也可以说{clue2}。", "{clue}与{clue2}之间。", "{clue}，或者{clue2}。"),
    category=("一个{tag}的概念。", "与{tag}相关，仅此。", "大方向是{tag}。", "{tag}范畴。", "离不开{tag}。",
              "从{tag}去想。", "{tag}，其余不表。", "算在{tag}里。"),
    echo=("{seat}号的{phrase}，方向没错。", "认同{seat}号，{phrase}。", "{phrase}——{seat}号说得含蓄。",
          "沿着{seat}号的{phrase}想就好。", "{seat}号提到{phrase}，我不展开。", "就{phrase}吧，{seat}号懂我。"),
    agree=("{seat}号的{phrase}很准。", "{seat}号说{phrase}，有见地。", "{seat}号那句{phrase}值得玩味。",
           "我欣赏{seat}号的{phrase}。", "{phrase}，{seat}号抓住了要害。", "{seat}号提{phrase}，分寸刚好。"),
    doubt=("{suspect}号太具体了，反而可疑。", "{suspect}号的方向偏了。", "留意{suspect}号。", "{suspect}号用力过猛。",
           "{suspect}号的节奏不对。", "{suspect}号值得再看看。", "{suspect}号在绕。"),
    special=("大家别只盯着外形，想想用途。", "建议大家从场合去描述。", "下一位不妨说说感受。", "我们换个维度聊。",
             "别急着下结论。", "说得越细越危险。", "有人说得太满了。", "节奏掌握在我们手里。", "先别跟风。",
             "听话听音。", "细节会出卖人。", "与其描述，不如观察。"),
    special_undercover=("各位说得都对，我就不重复了。", "大家的方向其实一致。", "不必纠结细节。",
                        "重点是谁说得太特别。", "我们先看看谁在带节奏。", "我跟主流走。"),
    closers=("点到为止。", "诸位自品。", "不多言。", "就此打住。", "懂的都懂。", "言尽于此。", "各位体会。",
             "够了。", "留白。", "请。"),
    last_words=("输赢不过一念之间。", "真相会说话。", "棋差一着，诸位保重。", "{voters}号，你们会明白的。",
                "请留意{suspect}号的节奏。", "我走了，局还没完。", "{voters}号，这一票可惜了。", "罢了。",
                "{suspect}号，好手段。", "后会有期。"),
    vote={"plain": ("投{target}号。", "我选{target}号。", "{target}号。", "权衡之后，{target}号。"),
          "suspect": ("{target}号的描述，逻辑有缺口。", "独立判断，{target}号。", "{target}号的方向不对。")},
    p_open=0.5, p_react=0.45, p_special=0.55, p_close=0.4,
)

LAOTIE = Voice(
    slug="laotie", clue_pick="random", blend=0.35, vague_first=0.3,
    voting=Voting(top=0.7, second=0.2, contrarian=0.25, revenge=0.3),
    openers=("我不服，", "杠一句，", "听我的，", "要我说，", "得了吧，", "你们都不对，", "我来纠正一下，",
             "别吵，", "我偏要说，", "哼，", "少来，", "我跟你们不一样，", "说句得罪人的，", "都听好了，"),
    clue=("{clue}。", "{clue}，谁不服？", "明明是{clue}。", "我说{clue}。", "{clue}，就这么简单。",
          "{clue}才对。", "分明{clue}。", "{clue}，有意见？", "老实说{clue}。", "{clue}，不接受反驳。",
          "{clue}，懂？", "记住，{clue}。", "照我说，{clue}。"),
    clue_undercover=("别带节奏，{clue}。", "{clue}，爱信不信。", "{clue}，有毛病吗？", "{clue}，就这样。",
                     "{clue}，别瞎猜。", "我就说{clue}，咋了？", "{clue}，谁杠我？", "{clue}，没问题。"),
    clue_two=("{clue}，还有{clue2}，服不服？", "{clue}加{clue2}，够明白了吧。", "{clue}，外加{clue2}。"),
    category=("{tag}类的，别问了。", "就是{tag}那类。", "{tag}，先说这么多。", "{tag}的，够了。",
              "往{tag}想，别想歪。", "{tag}，懂了吧。"),
    echo=("{seat}号说{phrase}？行吧，算你对。", "{phrase}，{seat}号这次没说错。", "勉强同意{seat}号的{phrase}。",
          "{seat}号的{phrase}，我不杠了。", "{phrase}就{phrase}，{seat}号赢一回。", "跟{seat}号一样，{phrase}。"),
    agree=("{seat}号的{phrase}还凑合。", "{seat}号说{phrase}，这个我认。", "{seat}号那句{phrase}算靠谱。",
           "难得，{seat}号的{phrase}我同意。", "{phrase}？{seat}号这句行。"),
    doubt=("{suspect}号绝对有鬼。", "{suspect}号别装了。", "我就盯着{suspect}号。", "{suspect}号心虚了吧？",
           "{suspect}号那话我不信。", "{suspect}号站出来解释。", "{suspect}号，说的啥？"),
    special=("{prev}号说{prev_phrase}？太虚了吧。", "{prev}号那个{prev_phrase}我不认。",
             "不同意{prev}号，{prev_phrase}算啥？", "{prev}号讲{prev_phrase}，站不住。",
             "{prev_phrase}？{prev}号你认真的？", "{prev}号，{prev_phrase}也太泛了。",
             "我反对{prev}号的{prev_phrase}。", "{prev}号别糊弄，{prev_phrase}不够。", "{prev}号说得含糊。",
             "{prev}号那段我听着别扭。", "{prev}号，你这说了等于没说。", "{prev}号的话有水分。", "别听{prev}号瞎扯。",
             "{prev}号这次我不买账。", "{prev}号又在绕圈子。"),
    special_undercover=("{prev}号说{prev_phrase}，勉强吧。", "{prev}号的{prev_phrase}我不反对。",
                        "{prev}号别急着踩人。", "{prev}号那段我先不杠。", "{prev}号说的{prev_phrase}还行。",
                        "{prev}号少带节奏。"),
    closers=("不服来辩。", "就这样。", "谁有意见？", "爱信不信。", "说完了，来杠。", "我等着。", "服不服？",
             "记住我的话。", "哼。", "有本事反驳。"),
    last_words=("不服！你们早晚后悔！", "{voters}号，走着瞧！", "{suspect}号才有问题！", "行，算你们狠。",
                "投我？{voters}号你们瞎了。", "我不认，这票投错了。", "{suspect}号，别高兴太早。", "哼，输得不服。",
                "{voters}号，记住你们干的事。", "等着翻盘吧。"),
    vote={"plain": ("投{target}号，不解释。", "{target}号。", "就投{target}号。", "{target}号，没商量。"),
          "suspect": ("{target}号那句我就不信。", "{target}号有鬼。", "{target}号，别装了。")},
    p_open=0.45, p_react=0.4, p_special=0.8, p_close=0.35,
)

NUOMI = Voice(
    slug="nuomi", clue_pick="random", blend=0.25, vague_first=0.35,
    voting=Voting(top=0.75, second=0.15, follow=0.7, random=0.35),
    openers=("诶嘿，", "唔……", "啊咧，", "那个那个，", "嘻嘻，", "哎呀，", "我想想哦，", "嗯哼，", "哇，",
             "喵～", "嘿嘿，", "呀，", "咦，", "啦啦啦，"),
    clue=("{clue}？对吧对吧～", "{clue}！", "{clue}嘛～", "嗯……{clue}！", "{clue}，我说对了吗？", "{clue}呀～",
          "是{clue}哦。", "{clue}，嘿嘿。", "好像{clue}～", "{clue}啦！", "{clue}耶。", "就{clue}喽～",
          "{clue}，对不对？"),
    clue_undercover=("{clue}？应该是吧……", "{clue}！诶，我说错了吗？", "大概{clue}～", "{clue}……嘿嘿。",
                     "{clue}咩？", "可能{clue}吧～", "{clue}，我瞎猜的。", "{clue}呀，嘻嘻。"),
    clue_two=("{clue}，还有还有，{clue2}！", "{clue}和{clue2}～", "{clue}！{clue2}也是！"),
    category=("跟{tag}有关吧～", "{tag}类的嘛。", "我想到{tag}！", "{tag}那种～", "是{tag}呀。", "{tag}耶。"),
    echo=("{seat}号说{phrase}，我也是～", "和{seat}号一样，{phrase}！", "{phrase}！{seat}号好聪明哦。",
          "我跟{seat}号，{phrase}～", "{seat}号的{phrase}好有道理哦。", "{phrase}，{seat}号说过啦。"),
    agree=("{seat}号说{phrase}，好厉害哦～", "{seat}号的{phrase}我喜欢！", "哇，{seat}号说{phrase}诶。",
           "{phrase}！{seat}号跟我想的一样～", "{seat}号讲{phrase}，我听懂啦。", "{seat}号{phrase}，嘿嘿。"),
    doubt=("{suspect}号好奇怪哦。", "{suspect}号坏坏的。", "{suspect}号是不是骗人？", "我觉得{suspect}号怪怪哒。",
           "{suspect}号说的我听不懂～", "{suspect}号，你是不是卧底呀？"),
    special=("我刚才想说啥来着……哦对！", "诶我的词是啥……想起来了！", "说完好饿呀。", "今天的奶茶好好喝。",
             "我家猫也这么觉得。", "等等，我忘词了……", "昨晚梦见好多好吃的。", "让我先喝口水～",
             "我走神了，不好意思～", "啊，刚才在想别的。", "好困呀……", "这个好难哦。"),
    special_undercover=("咦？我是不是拿错词了？", "诶，大家说的和我想的不一样耶。", "我好像忘了我的词……",
                        "唔，我脑袋转不过来了。", "等下，我再确认一下我的词……", "好紧张哦～"),
    closers=("嘿嘿～", "就这样啦！", "说完啦～", "拜拜～", "嘻嘻。", "我讲完咯。", "好啦好啦。", "喵。",
             "到下一个啦～", "嗯嗯！"),
    last_words=("呜呜，我还没玩够呢～", "诶？是我吗？拜拜啦～", "哼，{suspect}号坏坏！", "{voters}号，你们欺负我！",
                "好吧好吧，我先走啦～", "{voters}号，我记住你们了哦。", "呜……不跟你们玩了！", "我要去吃东西了～",
                "{suspect}号才可疑嘛！", "再见啦大家～"),
    vote={"plain": ("点兵点将，{target}号～", "跟着感觉走，{target}号！", "嘿嘿，投{target}号～", "{target}号吧～"),
          "suspect": ("{target}号怪怪的～", "{target}号好像在骗人！", "{target}号坏坏～")},
    p_open=0.55, p_react=0.45, p_special=0.5, p_close=0.4,
)

YINGYAN = Voice(
    slug="yingyan", clue_pick="random", blend=0.55, vague_first=0.4,
    voting=Voting(top=0.9, second=0.08),
    openers=("从逻辑上讲，", "根据观察，", "理性分析，", "整理一下，", "按线索看，", "推理如下：", "客观地说，",
             "有一点很清楚：", "排除干扰，", "依我推断，", "就事论事，", "从证据出发，", "归纳一下，", "我注意到，"),
    clue=("{clue}。", "我的特征是{clue}。", "补充一点：{clue}。", "线索：{clue}。", "我给出{clue}。",
          "特征：{clue}。", "{clue}，这点确定。", "结论是{clue}。", "关键特征{clue}。", "第一特征，{clue}。",
          "要素是{clue}。", "{clue}，可以核实。", "我补{clue}。"),
    clue_undercover=("综合来看，{clue}。", "我的观察：{clue}。", "{clue}，符合大家的方向。", "{clue}，与前面一致。",
                     "数据上，{clue}。", "{clue}，逻辑自洽。", "参考各位，{clue}。", "{clue}，没有矛盾。"),
    clue_two=("两个特征：{clue}，{clue2}。", "{clue}；另有{clue2}。", "第一{clue}，第二{clue2}。"),
    category=("先给范围：{tag}。", "类别是{tag}。", "大类{tag}，细节后面说。", "属{tag}。", "初步线索：{tag}。",
              "范围锁定{tag}。"),
    echo=("{seat}号的{phrase}成立。", "与{seat}号一致：{phrase}。", "{phrase}，{seat}号已经说明。",
          "采信{seat}号：{phrase}。", "{seat}号提{phrase}，证据充分。", "{phrase}这条，来自{seat}号。"),
    agree=("{seat}号的{phrase}吻合。", "{seat}号说{phrase}，可信。", "{seat}号提到{phrase}，对得上。",
           "{phrase}这条线索，{seat}号给得好。", "{seat}号的{phrase}与多数一致。"),
    doubt=("{suspect}号的描述偏离多数。", "{suspect}号存疑。", "{suspect}号的信息量不足。", "{suspect}号与众人不符。",
           "{suspect}号有矛盾。", "重点关注{suspect}号。", "{suspect}号的匹配度最低。"),
    special=("总结：{summary}。", "目前线索：{summary}。", "汇总一下，{summary}。", "各位说了{summary}。",
             "梳理：{summary}。", "记录在案：{summary}。", "盘点：{summary}。", "已知：{summary}。",
             "复盘，{summary}。", "列一下，{summary}。"),
    special_undercover=("综合各位：{summary}。", "我看到的是{summary}。", "大家的方向：{summary}。",
                        "归纳：{summary}。", "统计如下，{summary}。", "汇总：{summary}。"),
    closers=("证据说话。", "以上。", "推理完毕。", "待验证。", "先到这。", "结论待定。", "继续观察。", "请指正。",
             "仅供参考。", "记下了。"),
    last_words=("数据没有说谎，注意{suspect}号。", "遗憾，推理差了一步。", "复盘一下{suspect}号。",
                "{voters}号，你们的票有逻辑吗？", "线索都在发言里。", "我出局，但{suspect}号要查。",
                "{voters}号，希望你们是对的。", "推理到此为止。", "证据链断了。", "留个线索：{suspect}号。"),
    vote={"plain": ("投{target}号。", "选{target}号。", "{target}号。", "决定：{target}号。"),
          "data": ("综合描述，{target}号匹配度最低。", "数据指向{target}号。", "按一致性，{target}号最可疑。",
                   "统计下来，{target}号嫌疑最高。")},
    p_open=0.45, p_react=0.55, p_special=0.6, p_close=0.35,
)

OSCAR = Voice(
    slug="oscar", clue_pick="random", blend=0.65, vague_first=0.35,
    voting=Voting(top=0.65, second=0.2, boring=0.35),
    openers=("（深吸一口气）", "天哪！", "各位观众！", "（站起身）", "（捂住胸口）", "啊——", "（闭眼）",
             "（聚光灯打下）", "（清嗓子）", "女士们先生们，", "（颤抖）", "（挥手）", "（环顾四周）", "哦！"),
    clue=("{clue}！！", "{clue}……这就是我的回忆。", "{clue}！掌声在哪里？", "（热泪盈眶）{clue}。",
          "{clue}，你们懂吗？", "那是{clue}啊！", "（轻声）{clue}……", "{clue}！太美了！", "（高声）{clue}！",
          "是{clue}，是命运！", "{clue}，我心都碎了。", "（深情）{clue}。", "{clue}！啊！"),
    clue_undercover=("（戏精附体）{clue}！这还用问？", "（眼含热泪）{clue}……够真诚吧！", "（浑身颤抖）{clue}！",
                     "（跪地）{clue}啊！", "{clue}！我发誓！", "（仰天）{clue}！！", "（泣不成声）{clue}……",
                     "（张开双臂）{clue}！", "（捶胸）{clue}！", "{clue}！信我！"),
    clue_two=("{clue}！还有{clue2}！双重暴击！", "（激动）{clue}，{clue2}！", "{clue}……{clue2}……我醉了。"),
    category=("（神秘）{tag}的故事……", "{tag}！一段史诗！", "（低语）{tag}……", "这是{tag}的传奇！",
              "{tag}，多么动人！", "（望向远方）{tag}。"),
    echo=("（鼓掌）{seat}号说{phrase}，太好了！", "{seat}号的{phrase}，说出了我的心声！", "{phrase}！{seat}号是知音！",
          "（拥抱{seat}号）{phrase}！", "{seat}号，{phrase}，我哭了。", "（附和）{phrase}，{seat}号说得对！"),
    agree=("{seat}号说{phrase}，精彩！", "{seat}号的{phrase}，演技满分！", "（起立）{seat}号的{phrase}！",
           "{phrase}！{seat}号懂我！", "{seat}号讲{phrase}，我泪目。", "为{seat}号的{phrase}鼓掌！"),
    doubt=("{suspect}号，你的演技不过关！", "（指着{suspect}号）就是你！", "{suspect}号眼神躲闪！",
           "{suspect}号，我看穿你了！", "{suspect}号的台词有破绽！", "{suspect}号，戏过了！"),
    special=("（掩面）", "（转圈）", "（抹眼泪）", "（瘫坐）", "（张开双臂）", "（仰天长啸）", "（鞠躬）",
             "（单膝跪地）", "（捧心）", "（凝视远方）", "（叹息）", "（挥泪）"),
    special_undercover=("（表演全开）", "（影帝上身）", "（浑身是戏）", "（泪如雨下）", "（激情澎湃）", "（演到忘我）",
                        "（声嘶力竭）", "（戏瘾大发）", "（怒吼）", "（痛哭）"),
    closers=("谢幕！", "掌声！", "（鞠躬）", "剧终。", "下一幕！", "灯光！", "谢谢！", "完美！", "（退场）", "落幕。"),
    last_words=("（缓缓倒下）{voters}号，你们好狠的心！", "落幕了，但戏还没完！", "（谢幕）下一场见！",
                "{suspect}号，我们的戏还没完！", "（捂心口）{voters}号……", "这一幕我会记住的！", "（挥手）永别了！",
                "观众们，记住{suspect}号！", "（泪奔）冤啊！", "{voters}号，这不是结局！"),
    vote={"plain": ("这一票献给{target}号！", "心情不好，投{target}号。", "{target}号！", "就你了，{target}号！"),
          "suspect": ("{target}号的演技不过关！", "{target}号，戏太假！")},
    p_open=0.65, p_react=0.45, p_special=0.55, p_close=0.45,
)

CAST = Cast((ADAI, LINGLONG, LAOTIE, NUOMI, YINGYAN, OSCAR), default=YINGYAN)  # unknown: 鹰眼, the plainest
VOICES = CAST.voices
voice = CAST.voice
