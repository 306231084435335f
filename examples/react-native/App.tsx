/**
 * The Avatar Drive example app: fetches a session token (and the app id) from the token server
 * that `pnpm start` runs, loads an avatar into the device cache, shows it in <AvatarView>, and
 * drives it in SDK mode from a bundled WAV or the microphone.
 */
import {
  type Avatar,
  AvatarManager,
  AvatarSDK,
  AvatarView,
  type AvatarViewHandle,
  type MicrophoneFeed,
  startMicrophone,
} from '@avatar-drive/react-native';
import { useEffect, useRef, useState } from 'react';
import { Platform, Pressable, SafeAreaView, StyleSheet, Text, View } from 'react-native';
import { loadSample, speak } from './speech';

/**
 * The machine running `pnpm start` (default loopback: a simulator, or Android with `adb reverse`).
 * On a phone, the address `pnpm start --host 0.0.0.0` prints.
 */
const STACK_HOST = process.env.EXPO_PUBLIC_AVATAR_DRIVE_HOST ?? '127.0.0.1';
/** Your business server's token route (here: packages/token-server, started by `pnpm start`). */
const TOKEN_SERVER = process.env.EXPO_PUBLIC_TOKEN_SERVER ?? `http://${STACK_HOST}:8790`;
/** The two regions `pnpm start` runs, on that machine (the SDK's built-in ones are loopback). */
const REGIONS = {
  'ap-northeast': {
    consoleUrl: `http://${STACK_HOST}:8710`,
    ingressUrl: `ws://${STACK_HOST}:8710/v2/driveningress`,
  },
  'us-west': {
    consoleUrl: `http://${STACK_HOST}:8720`,
    ingressUrl: `ws://${STACK_HOST}:8720/v2/driveningress`,
  },
};
const AVATAR_ID = process.env.EXPO_PUBLIC_AVATAR_ID ?? 'mika';
const SAMPLE_RATE = 16000;

async function fetchSessionToken(): Promise<{ sessionToken: string; appId: string }> {
  const response = await fetch(`${TOKEN_SERVER}/session-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (!response.ok) throw new Error(`The token server answered ${response.status}.`);
  return (await response.json()) as { sessionToken: string; appId: string };
}

export default function App() {
  const ref = useRef<AvatarViewHandle>(null);
  const mic = useRef<MicrophoneFeed | undefined>(undefined);
  const [avatar, setAvatar] = useState<Avatar>();
  const [progress, setProgress] = useState(0);
  const [connection, setConnection] = useState('disconnected');
  const [conversation, setConversation] = useState('idle');
  const [talking, setTalking] = useState(false);
  const [problem, setProblem] = useState<string>();

  // Initialize, then load (cached on the device after the first run).
  useEffect(() => {
    (async () => {
      const { appId } = await fetchSessionToken();
      if (!AvatarSDK.isInitialized) {
        AvatarSDK.initialize(appId, {
          drivingServiceMode: 'sdk',
          regions: REGIONS,
          audioFormat: { channelCount: 1, sampleRate: SAMPLE_RATE },
          logLevel: 'info',
        });
      }
      setAvatar(await AvatarManager.load(AVATAR_ID, (p) => setProgress(p.progress)));
    })().catch((error: Error) => setProblem(error.message));
  }, []);

  // Android: dispose() is required (an unmounted view keeps its session); iOS releases on unmount.
  // The handle is kept from the first frame on: React clears `ref` before effect cleanups run.
  const shown = useRef<AvatarViewHandle | null>(null);
  useEffect(() => () => shown.current?.dispose(), []);

  const connect = async () => {
    shown.current = ref.current;
    const controller = ref.current!.controller;
    controller.onConnectionState = (state, failure) =>
      setConnection(failure ? `${state}: ${failure.code} — ${failure.message}` : state);
    controller.onConversationState = setConversation;
    controller.onError = (error) => setProblem(`${error.code}: ${error.message}`);
    AvatarSDK.setSessionToken((await fetchSessionToken()).sessionToken);
    await controller.start();
  };

  const sayHello = async () => {
    const controller = ref.current!.controller;
    speak(controller, await loadSample(SAMPLE_RATE), SAMPLE_RATE);
  };

  const toggleMicrophone = async () => {
    if (mic.current) {
      await mic.current.stop();
      mic.current = undefined;
      setTalking(false);
      return;
    }
    mic.current = await startMicrophone(ref.current!.controller);
    setTalking(true);
  };

  const run = (action: () => Promise<void> | void) => () => {
    Promise.resolve()
      .then(action)
      .catch((error: Error) => setProblem(error.message));
  };

  return (
    <SafeAreaView style={styles.screen}>
      <View style={styles.stage}>
        {avatar ? (
          <AvatarView
            ref={ref}
            avatar={avatar}
            style={styles.avatar}
            options={{ background: '#1d2129' }}
            onFirstRendering={run(connect)}
          />
        ) : (
          <Text style={styles.text}>
            Loading {AVATAR_ID}… {Math.round(progress * 100)} %
          </Text>
        )}
      </View>
      <Text style={styles.text}>
        {Platform.OS} · connection: {connection} · conversation: {conversation}
      </Text>
      {problem && <Text style={[styles.text, styles.problem]}>{problem}</Text>}
      <View style={styles.buttons}>
        <Button label="Say hello" disabled={connection !== 'connected'} onPress={run(sayHello)} />
        <Button
          label={talking ? 'Stop talking' : 'Talk'}
          disabled={connection !== 'connected'}
          onPress={run(toggleMicrophone)}
        />
        <Button
          label="Interrupt"
          disabled={connection !== 'connected'}
          onPress={() => ref.current?.controller.interrupt()}
        />
      </View>
    </SafeAreaView>
  );
}

function Button(props: { label: string; disabled?: boolean; onPress: () => void }) {
  return (
    <Pressable
      accessibilityRole="button"
      disabled={props.disabled}
      onPress={props.onPress}
      style={[styles.button, props.disabled && styles.disabled]}
    >
      <Text style={styles.text}>{props.label}</Text>
    </Pressable>
  );
}

const styles = StyleSheet.create({
  screen: { flex: 1, backgroundColor: '#14171d' },
  stage: { flex: 1, alignItems: 'center', justifyContent: 'center' },
  avatar: { width: '100%', height: '100%' },
  text: { color: '#e8ebf0', textAlign: 'center', margin: 6 },
  problem: { color: '#ff8a80' },
  buttons: { flexDirection: 'row', justifyContent: 'space-evenly', padding: 12 },
  button: { backgroundColor: '#2f6fed', borderRadius: 8, paddingHorizontal: 16, paddingVertical: 10 },
  disabled: { opacity: 0.4 },
});
