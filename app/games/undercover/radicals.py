"""CJK Radicals Supplement (U+2E80–U+2EF3) → the unified ideograph each one looks like.

NFKC already folds the Kangxi radicals (U+2F00–U+2FD5), the two supplement radicals that have a
compatibility decomposition (⺟, ⻳) and the compatibility ideographs. The rest come from the radicals'
Unicode names (C-SIMPLIFIED CART → 車 → t2s 车), with a hand-kept entry wherever the glyph is not the
named character (⺼ MEAT is drawn 月, ⺘ HAND is 扌). Values are already simplified. The table is small
and reviewed by eye; a test checks that every assigned supplement radical folds to a unified ideograph.
"""

from __future__ import annotations

RADICALS: dict[str, str] = {
    "\u2e80": "冫",  # ⺀ repeat
    "\u2e81": "厂",  # ⺁ cliff
    "\u2e82": "乛",  # ⺂ second one
    "\u2e83": "乚",  # ⺃ second two
    "\u2e84": "乙",  # ⺄ second three
    "\u2e85": "亻",  # ⺅ person
    "\u2e86": "冂",  # ⺆ box
    "\u2e87": "几",  # ⺇ table
    "\u2e88": "𠂊",  # ⺈ knife one
    "\u2e89": "刂",  # ⺉ knife two
    "\u2e8a": "卜",  # ⺊ divination
    "\u2e8b": "卩",  # ⺋ seal
    "\u2e8c": "小",  # ⺌ small one
    "\u2e8d": "小",  # ⺍ small two
    "\u2e8e": "尢",  # ⺎ lame one
    "\u2e8f": "尣",  # ⺏ lame two
    "\u2e90": "尢",  # ⺐ lame three
    "\u2e91": "兀",  # ⺑ lame four
    "\u2e92": "巳",  # ⺒ snake
    "\u2e93": "幺",  # ⺓ thread
    "\u2e94": "彐",  # ⺔ snout one
    "\u2e95": "彐",  # ⺕ snout two
    "\u2e96": "忄",  # ⺖ heart one
    "\u2e97": "心",  # ⺗ heart two
    "\u2e98": "扌",  # ⺘ hand
    "\u2e99": "攵",  # ⺙ rap
    "\u2e9b": "旡",  # ⺛ choke
    "\u2e9c": "日",  # ⺜ sun
    "\u2e9d": "月",  # ⺝ moon
    "\u2e9e": "歹",  # ⺞ death
    "\u2ea0": "民",  # ⺠ civilian
    "\u2ea1": "氵",  # ⺡ water one
    "\u2ea2": "氺",  # ⺢ water two
    "\u2ea3": "灬",  # ⺣ fire
    "\u2ea4": "爫",  # ⺤ paw one
    "\u2ea5": "爫",  # ⺥ paw two
    "\u2ea6": "丬",  # ⺦ simplified half tree trunk
    "\u2ea7": "牛",  # ⺧ cow
    "\u2ea8": "犭",  # ⺨ dog
    "\u2ea9": "王",  # ⺩ jade
    "\u2eaa": "疋",  # ⺪ bolt of cloth
    "\u2eab": "罒",  # ⺫ eye
    "\u2eac": "示",  # ⺬ spirit one
    "\u2ead": "礻",  # ⺭ spirit two
    "\u2eae": "竹",  # ⺮ bamboo
    "\u2eaf": "糸",  # ⺯ silk
    "\u2eb0": "纟",  # ⺰ c-simplified silk
    "\u2eb1": "冈",  # ⺱ net one
    "\u2eb2": "罒",  # ⺲ net two
    "\u2eb3": "罒",  # ⺳ net three
    "\u2eb4": "网",  # ⺴ net four
    "\u2eb5": "罓",  # ⺵ mesh
    "\u2eb6": "羊",  # ⺶ sheep
    "\u2eb7": "羊",  # ⺷ ram
    "\u2eb8": "羊",  # ⺸ ewe
    "\u2eb9": "耂",  # ⺹ old
    "\u2eba": "肀",  # ⺺ brush one
    "\u2ebb": "聿",  # ⺻ brush two
    "\u2ebc": "月",  # ⺼ meat
    "\u2ebd": "臼",  # ⺽ mortar
    "\u2ebe": "艹",  # ⺾ grass one
    "\u2ebf": "艹",  # ⺿ grass two
    "\u2ec0": "艹",  # ⻀ grass three
    "\u2ec1": "虍",  # ⻁ tiger
    "\u2ec2": "衤",  # ⻂ clothes
    "\u2ec3": "覀",  # ⻃ west one
    "\u2ec4": "西",  # ⻄ west two
    "\u2ec5": "见",  # ⻅ c-simplified see
    "\u2ec6": "角",  # ⻆ simplified horn
    "\u2ec7": "角",  # ⻇ horn
    "\u2ec8": "讠",  # ⻈ c-simplified speech
    "\u2ec9": "贝",  # ⻉ c-simplified shell
    "\u2eca": "足",  # ⻊ foot
    "\u2ecb": "车",  # ⻋ c-simplified cart
    "\u2ecc": "辶",  # ⻌ simplified walk
    "\u2ecd": "辶",  # ⻍ walk one
    "\u2ece": "辶",  # ⻎ walk two
    "\u2ecf": "阝",  # ⻏ city
    "\u2ed0": "钅",  # ⻐ c-simplified gold
    "\u2ed1": "长",  # ⻑ long one
    "\u2ed2": "长",  # ⻒ long two
    "\u2ed3": "长",  # ⻓ c-simplified long
    "\u2ed4": "门",  # ⻔ c-simplified gate
    "\u2ed5": "𠂤",  # ⻕ mound one
    "\u2ed6": "阝",  # ⻖ mound two
    "\u2ed7": "雨",  # ⻗ rain
    "\u2ed8": "青",  # ⻘ blue
    "\u2ed9": "韦",  # ⻙ c-simplified tanned leather
    "\u2eda": "页",  # ⻚ c-simplified leaf
    "\u2edb": "风",  # ⻛ c-simplified wind
    "\u2edc": "飞",  # ⻜ c-simplified fly
    "\u2edd": "食",  # ⻝ eat one
    "\u2ede": "食",  # ⻞ eat two
    "\u2edf": "饣",  # ⻟ eat three
    "\u2ee0": "饣",  # ⻠ c-simplified eat
    "\u2ee1": "首",  # ⻡ head
    "\u2ee2": "马",  # ⻢ c-simplified horse
    "\u2ee3": "骨",  # ⻣ bone
    "\u2ee4": "鬼",  # ⻤ ghost
    "\u2ee5": "鱼",  # ⻥ c-simplified fish
    "\u2ee6": "鸟",  # ⻦ c-simplified bird
    "\u2ee7": "卤",  # ⻧ c-simplified salt
    "\u2ee8": "麦",  # ⻨ simplified wheat
    "\u2ee9": "黄",  # ⻩ simplified yellow
    "\u2eea": "黾",  # ⻪ c-simplified frog
    "\u2eeb": "齐",  # ⻫ j-simplified even
    "\u2eec": "齐",  # ⻬ c-simplified even
    "\u2eed": "齿",  # ⻭ j-simplified tooth
    "\u2eee": "齿",  # ⻮ c-simplified tooth
    "\u2eef": "龙",  # ⻯ j-simplified dragon
    "\u2ef0": "龙",  # ⻰ c-simplified dragon
    "\u2ef1": "龟",  # ⻱ turtle
    "\u2ef2": "龟",  # ⻲ j-simplified turtle
}
