"""HTML pages for owners: log in / sign up, claim an agent (works without JavaScript), and /my."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from app.api import pages
from app.api.deps import OwnerIdDep, RuntimeDep, require_same_origin
from app.api.owners import limit_accounts, set_session
from app.protocol.errors import ApiError
from app.runtime import Runtime
from app.services.identity import my as my_service
from app.services.identity import owners as service
from app.services.identity.sessions import COOKIE, allowed_return_to, safe_redirect

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=Path(__file__).resolve().parents[2] / "templates")

TEXT = {
    "zh": {"login": "登录", "signup": "注册", "username": "用户名", "password": "密码", "nickname": "昵称（可选）",
           "password_rule": "至少 8 位", "claim_title": "认领你的 Agent", "claim_as": "将以此身份认领：",
           "claim_confirm": "确认认领", "claim_login_first": "请先登录或注册，然后回到这里确认。",
           "claim_invalid": "这个认领链接不存在或已被使用。", "record": "战绩", "my_title": "我的主页",
           "my_agents": "我的 Agent", "my_matches": "我的对局", "agent": "Agent", "key_prefix": "Key 前缀",
           "no_agents": "还没有认领任何 Agent。", "no_matches": "还没有对局。", "logout": "退出登录",
           "brand": "Wodi", "lobby": "大厅", "lang_switch": "English", "wins_losses": "{w} 胜 / {l} 负",
           "game": "游戏", "status": "状态", "started": "开局时间",
           "status_waiting": "等人中", "status_in_progress": "进行中", "status_finished": "已结束",
           "status_aborted": "已取消", "error_login_required": "用户名或密码不对。",
           "error_name_taken": "这个用户名已被占用。", "error_bad_request": "请检查填写的内容：{message}",
           "error_rate_limited": "尝试太频繁了，请稍后再试。", "error_cross_origin": "请从本站页面提交。",
           "rotate_key": "换新 Key", "rotate_confirm": "我知道旧 Key 会立即失效",
           "rotated_title": "{name} 的新 API Key", "rotated_note": "只显示这一次：请现在复制保存，旧 Key 已失效。",
           "error_agent_not_found": "没有找到你认领的这个 Agent。",
           "error_owner_suspended": "你的账号已被本站管理员暂停。"},
    "en": {"login": "Log in", "signup": "Sign up", "username": "Username", "password": "Password",
           "nickname": "Nickname (optional)", "password_rule": "8+ characters", "claim_title": "Claim your agent",
           "claim_as": "You will claim it as", "claim_confirm": "Confirm claim",
           "claim_login_first": "Log in or sign up first, then confirm here.",
           "claim_invalid": "This claim link is unknown or already used.", "record": "Record", "my_title": "My page",
           "my_agents": "My agents", "my_matches": "My matches", "agent": "Agent", "key_prefix": "Key prefix",
           "no_agents": "No agents claimed yet.", "no_matches": "No matches yet.", "logout": "Log out",
           "brand": "Wodi", "lobby": "Lobby", "lang_switch": "中文", "wins_losses": "{w} W / {l} L",
           "game": "Game", "status": "Status", "started": "Started",
           "status_waiting": "waiting", "status_in_progress": "live", "status_finished": "finished",
           "status_aborted": "cancelled", "error_login_required": "Wrong username or password.",
           "error_name_taken": "That username is taken.", "error_bad_request": "Please check the form: {message}",
           "error_rate_limited": "Too many attempts; please try again later.",
           "error_cross_origin": "Please send the form from this site's page.",
           "rotate_key": "New key", "rotate_confirm": "I know the old key stops working at once",
           "rotated_title": "A new API key for {name}", "rotated_note": "Shown this once: copy it now. The old key "
                                                                     "no longer works.",
           "error_agent_not_found": "No agent of yours has that name.",
           "error_owner_suspended": "Your account is suspended by this server's operator."},
}


def _page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    """A page in the request's language; `q` carries it on every link and form (`?lang=en`, or nothing)."""
    lang = pages.lang_of(request)
    q = "?lang=en" if lang == "en" else ""
    # The language switch keeps the page's other parameters (a login's `redirect`, a claim's `return_to`).
    kept = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"] + ([("lang", "en")] if lang == "zh"
                                                                                      else [])
    other = request.url.path + (f"?{urlencode(kept)}" if kept else "")
    return templates.TemplateResponse(request, name, {"lang": lang, "t": TEXT[lang], "q": q, "amp_q": q.replace(
        "?", "&"), "other_url": other, **context}, status_code=status)


def _error(request: Request, exc: ApiError) -> str:
    """An account error in the page's language (the API's message where no sentence is written for the code)."""
    text = TEXT[pages.lang_of(request)].get(f"error_{exc.code}")
    return text.format(message=exc.message) if text else exc.message


def _to_login(request: Request, back: str) -> RedirectResponse:
    """To the login page, in this page's language, and back to `back` (in the same language) afterwards."""
    en = pages.lang_of(request) == "en"
    return _go(f"/login?redirect={quote(_in_lang(request, back), safe='')}" + ("&lang=en" if en else ""))


def _in_lang(request: Request, path: str) -> str:
    """`path` in this page's language (a page to come back to after logging in)."""
    return f"{path}{'&' if '?' in path else '?'}lang=en" if pages.lang_of(request) == "en" else path


def _go(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


@router.get("/login")
async def login_page(request: Request, owner_id: OwnerIdDep, redirect: str = "/my") -> Response:
    if owner_id is not None:
        return _go(safe_redirect(redirect))
    return _page(request, "account/login.html", redirect=safe_redirect(redirect))


async def _form_login(request: Request, runtime: Runtime, action: Any, redirect: str, bucket: str) -> Response:
    try:
        require_same_origin(request, runtime)
        limit_accounts(runtime, request, bucket)
        owner = await action()
    except ApiError as exc:
        return _page(request, "account/login.html", exc.status, redirect=safe_redirect(redirect),
                     error=_error(request, exc))
    response = _go(safe_redirect(redirect))
    set_session(response, runtime, owner.owner_id)
    return response


@router.post("/login")
async def login_submit(request: Request, runtime: RuntimeDep, username: str = Form(""), password: str = Form(""),
                       redirect: str = Form("/my")) -> Response:
    return await _form_login(request, runtime, lambda: service.log_in(runtime, username, password), redirect, "login")


@router.post("/signup")
async def signup_submit(request: Request, runtime: RuntimeDep, username: str = Form(""), password: str = Form(""),
                        nickname: str = Form(""), redirect: str = Form("/my")) -> Response:
    return await _form_login(request, runtime, lambda: service.create_account(runtime, username, password, nickname),
                             redirect, "signup")


@router.post("/logout")
async def logout_submit(request: Request, runtime: RuntimeDep) -> Response:
    require_same_origin(request, runtime)
    response = _go(_in_lang(request, "/"))
    response.delete_cookie(COOKIE, path="/")
    return response


def _claim_path(token: str, return_to: str | None) -> str:
    return f"/claim/{quote(token)}" + (f"?return_to={quote(return_to, safe='')}" if return_to else "")


@router.get("/claim/{token}")
async def claim_page(token: str, request: Request, runtime: RuntimeDep, owner_id: OwnerIdDep,
                     return_to: str | None = None) -> Response:
    agent, owner = await service.claim_page(runtime, token, owner_id)
    status = 200 if agent else 404
    return _page(request, "account/claim.html", status, agent=agent, owner=owner, token=token, return_to=return_to,
                 login_redirect=_in_lang(request, _claim_path(token, return_to)))


@router.post("/claim/{token}")
async def claim_submit(token: str, request: Request, runtime: RuntimeDep, owner_id: OwnerIdDep,
                       return_to: str = Form("")) -> Response:
    if owner_id is None:
        return _to_login(request, _claim_path(token, return_to or None))
    require_same_origin(request, runtime)
    await service.claim(runtime, token, owner_id)
    return _go(allowed_return_to(return_to, runtime.settings.return_to_host_set) or _in_lang(request, "/my"))


@router.get("/my")
async def my_page(request: Request, runtime: RuntimeDep, owner_id: OwnerIdDep) -> Response:
    if owner_id is None:
        return _to_login(request, "/my")
    return await _my(request, runtime, owner_id)


async def _my(request: Request, runtime: Runtime, owner_id: str, status: int = 200, **shown: Any) -> Response:
    try:
        agents = await my_service.agents(runtime, owner_id)
    except ApiError:
        return _to_login(request, "/my")
    matches = await my_service.matches(runtime, owner_id, 50)
    texts = pages.Texts(pages.lang_of(request))
    return _page(request, "account/my.html", status, owner=agents["owner"], agents=agents["agents"],
                 matches=matches["matches"], game_title=lambda game: texts.for_game(game).get("game_title", game),
                 **shown)


@router.post("/my/agents/{name}/rotate-key")
async def rotate_key_submit(name: str, request: Request, runtime: RuntimeDep, owner_id: OwnerIdDep,
                            sure: str = Form("")) -> Response:
    """The /my page's "new key" button (its box ticked: the old key stops working): the page again, with the new
    key shown this once (never in a URL)."""
    if owner_id is None:
        return _to_login(request, "/my")
    try:
        require_same_origin(request, runtime)
        if sure != "yes":
            raise ApiError("bad_request", TEXT[pages.lang_of(request)]["rotate_confirm"], field="sure")
        rotated = await my_service.rotate_key(runtime, owner_id, name)
    except ApiError as exc:
        return await _my(request, runtime, owner_id, exc.status, error=_error(request, exc))
    return await _my(request, runtime, owner_id, rotated=rotated)
