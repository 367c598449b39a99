"""HTML pages for owners: log in / sign up, claim an agent (works without JavaScript), and /my."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

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
           "no_agents": "还没有认领任何 Agent。", "no_matches": "还没有对局。", "logout": "退出登录"},
    "en": {"login": "Log in", "signup": "Sign up", "username": "Username", "password": "Password",
           "nickname": "Nickname (optional)", "password_rule": "8+ characters", "claim_title": "Claim your agent",
           "claim_as": "You will claim it as", "claim_confirm": "Confirm claim",
           "claim_login_first": "Log in or sign up first, then confirm here.",
           "claim_invalid": "This claim link is unknown or already used.", "record": "Record", "my_title": "My page",
           "my_agents": "My agents", "my_matches": "My matches", "agent": "Agent", "key_prefix": "Key prefix",
           "no_agents": "No agents claimed yet.", "no_matches": "No matches yet.", "logout": "Log out"},
}


def _page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    lang = "en" if request.query_params.get("lang") == "en" else "zh"
    return templates.TemplateResponse(request, name, {"lang": lang, "t": TEXT[lang], **context}, status_code=status)


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
        return _page(request, "account/login.html", exc.status, redirect=safe_redirect(redirect), error=exc.message)
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
    response = _go("/")
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
                 login_redirect=_claim_path(token, return_to))


@router.post("/claim/{token}")
async def claim_submit(token: str, request: Request, runtime: RuntimeDep, owner_id: OwnerIdDep,
                       return_to: str = Form("")) -> Response:
    if owner_id is None:
        return _go(f"/login?redirect={quote(_claim_path(token, return_to or None), safe='')}")
    require_same_origin(request, runtime)
    await service.claim(runtime, token, owner_id)
    return _go(allowed_return_to(return_to, runtime.settings.return_to_host_set) or "/my")


@router.get("/my")
async def my_page(request: Request, runtime: RuntimeDep, owner_id: OwnerIdDep) -> Response:
    if owner_id is None:
        return _go("/login?redirect=/my")
    try:
        agents = await my_service.agents(runtime, owner_id)
    except ApiError:
        return _go("/login?redirect=/my")
    matches = await my_service.matches(runtime, owner_id, 50)
    return _page(request, "account/my.html", owner=agents["owner"], agents=agents["agents"],
                 matches=matches["matches"])
