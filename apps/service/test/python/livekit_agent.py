"""A LiveKit Agents (Python) agent whose avatar is `livekit-plugins-spatius`, pointed at an Avatar
Drive service instead of the vendor's cloud.

Runs as a worker process would: `spatius.prewarm()` first (prefetching one session token that
every job of the process reuses), then `--jobs` jobs one after another, each in its own room:
AgentSession + spatius AvatarSession, speech given as audio frames through `session.say(audio=...)`
(no LLM/TTS/STT, nothing outside this machine). Job 1 plays one `say()`, two `say()` in a row, and
an interrupted `say()`; later jobs play one `say()`. Prints one JSON object with what it measured.

Environment: LIVEKIT_URL / LIVEKIT_API_KEY / LIVEKIT_API_SECRET, and SPATIUS_API_KEY,
SPATIUS_APP_ID, SPATIUS_AVATAR_ID, SPATIUS_CONSOLE_ENDPOINT, SPATIUS_INGRESS_ENDPOINT (the
service's own URLs: with both set the SDK never calls the vendor's region bootstrap).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import sys
import time
import uuid
from typing import AsyncIterator

# The SDK exports OTLP traces and metrics to the vendor unless told otherwise, before it makes any
# session: here to the self-hoster's own collector (--telemetry-endpoint), or nowhere ("").
import spatius

from livekit import api, rtc  # noqa: E402
from livekit.agents import Agent, AgentSession, room_io  # noqa: E402
from livekit.plugins import spatius as spatius_plugin  # noqa: E402

RATE = 24000
FRAME = RATE // 50  # 20 ms


def speech(seconds: float, pitch: float = 130.0) -> list[rtc.AudioFrame]:
    """Speech-like sound (syllables of a two-formant vowel) as 20 ms frames."""
    frames: list[rtc.AudioFrame] = []
    total = int(seconds * RATE)
    for start in range(0, total, FRAME):
        n = min(FRAME, total - start)
        samples = bytearray(n * 2)
        for i in range(n):
            t = (start + i) / RATE
            envelope = max(0.0, math.sin(math.pi * 4 * t)) ** 0.5
            voice = math.sin(2 * math.pi * 700 * t) * 0.6 + math.sin(2 * math.pi * 1200 * t) * 0.3
            value = int(envelope * voice * 9000 * (1 + 0.2 * math.sin(2 * math.pi * pitch * t)))
            samples[2 * i : 2 * i + 2] = value.to_bytes(2, "little", signed=True)
        frames.append(rtc.AudioFrame(bytes(samples), RATE, 1, n))
    return frames


async def as_stream(frames: list[rtc.AudioFrame]) -> AsyncIterator[rtc.AudioFrame]:
    for frame in frames:
        yield frame


class Job:
    """One job: a room, the agent in it, and its spatius avatar."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.room = rtc.Room()
        self.session: AgentSession | None = None
        self.avatar: spatius_plugin.AvatarSession | None = None
        self.started: list[float] = []
        self.finished: list[dict] = []

    async def start(self) -> None:
        room_name = f"py-agent-{uuid.uuid4()}"
        token = (
            api.AccessToken(os.environ["LIVEKIT_API_KEY"], os.environ["LIVEKIT_API_SECRET"])
            .with_identity(f"py-agent-{self.index}")
            .with_kind("agent")
            .with_grants(api.VideoGrants(room_join=True, room=room_name, agent=True))
            .to_jwt()
        )
        await self.room.connect(os.environ["LIVEKIT_URL"], token)
        self.session = AgentSession()
        self.avatar = spatius_plugin.AvatarSession()
        await self.avatar.start(self.session, self.room)
        await self.session.start(
            agent=Agent(instructions="Speak the audio you are given."),
            room=self.room,
            room_options=room_io.RoomOptions(audio_input=False, text_input=False, close_on_disconnect=False),
        )
        # The plugin's audio sink reports what the avatar's playback RPCs said (the pinned
        # plugin keeps it in `_audio`).
        sink = self.avatar._audio
        assert sink is not None
        sink.on("playback_started", lambda ev: self.started.append(time.monotonic()))
        sink.on(
            "playback_finished",
            lambda ev: self.finished.append(
                {
                    "at": time.monotonic(),
                    "position": ev.playback_position,
                    "interrupted": ev.interrupted,
                }
            ),
        )

    async def say(self, seconds: float, pitch: float = 130.0) -> dict:
        """One say(), awaited to the end of its playout."""
        assert self.session is not None
        before = len(self.finished)
        handle = self.session.say("", audio=as_stream(speech(seconds, pitch)), add_to_chat_ctx=False)
        await asyncio.wait_for(handle.wait_for_playout(), timeout=seconds + 15)
        # Wall clock, to set against the service's log of when the audio left the avatar's track.
        done = time.time()
        finished = self.finished[before] if len(self.finished) > before else None
        return {
            "seconds": seconds,
            "completed_at_epoch_ms": done * 1000,
            "finished": finished and {k: v for k, v in finished.items() if k != "at"},
        }

    async def say_twice(self) -> dict:
        assert self.session is not None
        before = len(self.finished)
        t0 = time.monotonic()
        first = self.session.say("", audio=as_stream(speech(1.0)), add_to_chat_ctx=False)
        second = self.session.say("", audio=as_stream(speech(1.0, 180.0)), add_to_chat_ctx=False)
        await asyncio.wait_for(asyncio.gather(first.wait_for_playout(), second.wait_for_playout()), 30)
        return {
            "elapsed_s": time.monotonic() - t0,
            "finished": [{k: v for k, v in f.items() if k != "at"} for f in self.finished[before:]],
            "started": len(self.started),
        }

    async def interrupt(self) -> dict:
        assert self.session is not None
        before_started = len(self.started)
        before = len(self.finished)
        frames = speech(8.0)
        handle = self.session.say("", audio=as_stream(frames), add_to_chat_ctx=False)
        deadline = time.monotonic() + 15
        while len(self.started) == before_started:
            if time.monotonic() > deadline:
                raise TimeoutError("the avatar never reported playback_started")
            await asyncio.sleep(0.02)
        await asyncio.sleep(1.2)
        interrupted_at = time.monotonic()
        interrupted_epoch = time.time()
        handle.interrupt()
        await asyncio.wait_for(handle.wait_for_playout(), timeout=10)
        while len(self.finished) == before and time.monotonic() < interrupted_at + 5:
            await asyncio.sleep(0.02)
        finished = self.finished[before] if len(self.finished) > before else None
        return {
            "played_before_interrupt_s": interrupted_at - self.started[-1],
            "reported_after_s": finished and finished["at"] - interrupted_at,
            "finished": finished and {k: v for k, v in finished.items() if k != "at"},
            "handle_interrupted": handle.interrupted,
            "interrupted_at_epoch_ms": interrupted_epoch * 1000,
        }

    async def close(self) -> None:
        if self.avatar is not None:
            await self.avatar.aclose()
        if self.session is not None:
            await self.session.aclose()
        await self.room.disconnect()


async def run(jobs: int) -> dict:
    out: dict = {"jobs": []}
    for index in range(jobs):
        job = Job(index)
        record: dict = {}
        out["jobs"].append(record)
        try:
            await job.start()
            record["say"] = await job.say(1.5)
            if index == 0:
                record["say_twice"] = await job.say_twice()
                record["interrupt"] = await job.interrupt()
        except Exception as error:  # reported, not raised: the test reads the JSON
            record["error"] = f"{type(error).__name__}: {error}"
            cause = error.__cause__
            if cause is not None:
                record["error"] += f" (cause {type(cause).__name__}: {cause})"
        finally:
            await job.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--telemetry-endpoint", default="")
    args = parser.parse_args()
    spatius.configure_telemetry(args.telemetry_endpoint)
    # As a worker's prewarm_fnc would (the plugin's documented default: prefetch a session token);
    # it reads only the SPATIUS_* environment, not the job process.
    spatius_plugin.prewarm(None)  # type: ignore[arg-type]
    result = asyncio.run(run(args.jobs))
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
