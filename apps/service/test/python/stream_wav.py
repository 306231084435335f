"""Streams a WAV file to an Avatar Drive service with the public `spatialreal` SDK.

Prints one JSON object on stdout: what the SDK received (raw envelopes base64-encoded, playback
states, errors), for the vitest suite to check.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import wave
from datetime import datetime, timedelta, timezone

from spatialreal import new_avatar_session


async def stream(args: argparse.Namespace, use_query_auth: bool) -> dict:
    with wave.open(args.wav, "rb") as wav:
        sample_rate = wav.getframerate()
        assert wav.getnchannels() == 1 and wav.getsampwidth() == 2, "mono 16-bit WAV expected"
        pcm = wav.readframes(wav.getnframes())

    frames: list[dict] = []
    states: list[dict] = []
    errors: list[str] = []
    done = asyncio.Event()
    ended = asyncio.Event()

    def transport_frames(payload: bytes, is_last: bool) -> None:
        frames.append({"bytes": base64.b64encode(payload).decode(), "last": is_last})
        if is_last:
            done.set()

    def on_playback_state(event) -> None:
        states.append({"req_id": event.req_id, "state": event.state.value, "played_ms": event.played_ms})
        if event.state.value in ("ended", "interrupted"):
            ended.set()

    session = new_avatar_session(
        avatar_id=args.avatar_id,
        api_key=args.api_key,
        app_id=args.app_id,
        use_query_auth=use_query_auth,
        expire_at=datetime.now(timezone.utc) + timedelta(minutes=5),
        sample_rate=sample_rate,
        console_endpoint_url=args.console_url,
        ingress_endpoint_url=args.ingress_url,
        transport_frames=transport_frames,
        on_playback_state=on_playback_state,
        on_error=lambda e: errors.append(str(e)),
    )
    await session.init()
    connection_id = await session.start()
    chunk = sample_rate * 2 // 50  # 20 ms
    req_id = ""
    for i in range(0, len(pcm), chunk):
        req_id = await session.send_audio(pcm[i : i + chunk], end=False)
        await asyncio.sleep(0.005)
    await session.send_audio(b"", end=True)
    await asyncio.wait_for(done.wait(), timeout=20)
    await asyncio.wait_for(ended.wait(), timeout=20)
    capabilities = list(session.capabilities)
    await session.close()
    return {
        "connection_id": connection_id,
        "capabilities": capabilities,
        "req_id": req_id,
        "frames": frames,
        "states": states,
        "errors": errors,
    }


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--console-url", required=True)
    parser.add_argument("--ingress-url", required=True)
    parser.add_argument("--app-id", required=True)
    # The key comes from the environment so it never shows in a process list.
    parser.add_argument("--api-key", default=os.environ.get("AVATAR_DRIVE_API_KEY", ""))
    parser.add_argument("--avatar-id", required=True)
    parser.add_argument("--wav", required=True)
    args = parser.parse_args()
    results = {"headers": await stream(args, False), "query": await stream(args, True)}
    print(json.dumps(results))


if __name__ == "__main__":
    asyncio.run(main())
