import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createAppPassword, createUser } from '@cloudvault/test-support/accounts';
import { looksNumbered, newContent, newFileName, newFolderName, siblingKey } from './contents.ts';
import { type LocalOperation, localActor } from './local-actor.ts';
import { startRestartableServer } from './restartable-server.ts';
import { seededRandom } from './seeded-random.ts';
import { serverContents } from './server-contents.ts';
import { startSwitchableProxy } from './switchable-proxy.ts';
import { type CommandRun, type SyncClient, syncClient } from './sync-client.ts';
import { PRIVATE_AREA, type Tree, diffTrees, hashBytes, hashesUnder, readLocalTree } from './trees.ts';
import { type ServerView, webActor } from './web-actor.ts';

const EMPTY_CONTENT = hashBytes(new Uint8Array(0));

export interface ScenarioOptions {
  seed: number;
  /** How many random steps before the quiesce. */
  ops: number;
  /** Where the server's data, the two synced folders and their config dirs go. */
  workDir: string;
  /** Kills of the client mid-pass, server restarts and the cutting proxy. */
  faults: boolean;
  /** The command's script: the real one unless the harness's own test gives a stand-in. */
  cli?: string;
}

export interface ScenarioReport {
  /** What the checks found wrong; empty when the run passed. */
  problems: string[];
  /** Every step as it was taken, for the replay. */
  log: string[];
  summary: string;
}

/** How many rounds (alpha then beta, each --once) the quiesce runs before it gives up on convergence. */
const QUIESCE_ROUNDS = 5;
const CONFLICT_COPY = /^(.*) \(conflicted copy [^)]*\)(\.[^./]*)?$/;

const parentOf = (relative: string) => (relative.includes('/') ? relative.slice(0, relative.lastIndexOf('/')) : '');
const baseName = (relative: string) => relative.slice(relative.lastIndexOf('/') + 1);
const join = (folder: string, name: string) => (folder === '' ? name : `${folder}/${name}`);

/**
 * One seeded run: a server process behind a cutting proxy, two devices (alpha, beta) and the
 * web API as a third actor make random changes, sync (sometimes killed) and suffer faults;
 * then everything quiesces and the checks run: (a) the three trees are equal byte for byte,
 * (b) every content any actor held when a pass or the API saw it is still somewhere, (c) no
 * name was numbered (`name (1).ext`) and no conflicted copy holds the same bytes as its original.
 */
export async function runScenario(options: ScenarioOptions): Promise<ScenarioReport> {
  const random = seededRandom(options.seed);
  // The proxy's draws follow connections, whose number depends on timing: a generator of their own.
  const proxyRandom = random.fork();
  const versioning = random.chance(0.5);
  let counter = 0;
  const nextNumber = () => ++counter;
  const log: string[] = [];
  const note = (line: string) => log.push(line);
  const problems: string[] = [];
  const stats = { local: 0, web: 0, concurrent: 0, passes: 0, ok: 0, failed: 0, killed: 0, hung: 0, restarts: 0, proxyToggles: 0 };
  /** Each content that must survive, by SHA-256, and where it was first seen. */
  const required = new Map<string, string>();
  const requireContent = (hash: string, origin: string) => {
    if (!required.has(hash)) required.set(hash, origin);
  };

  const serverDir = path.join(options.workDir, 'server');
  await mkdir(serverDir, { recursive: true });
  const server = await startRestartableServer(serverDir, { versioning });
  const proxy = await startSwitchableProxy(server.url, proxyRandom, { cutShare: 0.4, maxBytes: 2 * 1024 * 1024 });
  note(`seed ${options.seed}: versioning ${versioning ? 'on' : 'off'}, faults ${options.faults ? 'on' : 'off'}`);
  try {
    const user = await createUser({ url: server.url });
    const appPassword = await createAppPassword({ url: server.url }, user, { name: 'randomized sync test' });
    const web = webActor(server.url, user.token);
    const clients: SyncClient[] = [];
    for (const name of ['alpha', 'beta']) {
      const client = syncClient(name, path.join(options.workDir, name), path.join(options.workDir, `${name}-config`), options.cli);
      await mkdir(client.dir, { recursive: true });
      const login = await client.login(proxy.origin, user.email, appPassword);
      if (login.code !== 0) throw new Error(`cloudvault login (${name}) exited ${login.code}:\n${login.output}`);
      clients.push(client);
    }
    const [alpha, beta] = clients as [SyncClient, SyncClient];
    const locals = new Map(clients.map((client) => [client, localActor(client.dir, random, nextNumber, true)]));

    /** One `sync --once` of `client`; what its disk held at the start must survive when it ends 0. */
    const runPass = async (client: SyncClient, killAfterMs?: number): Promise<CommandRun> => {
      const before = await readLocalTree(client.dir);
      const run = await client.syncOnce(killAfterMs);
      stats.passes += 1;
      if (run.killed) stats.killed += 1;
      else if (run.hung) stats.hung += 1;
      else if (run.code === 0) stats.ok += 1;
      else stats.failed += 1;
      if (run.code === 0)
        for (const [file, hash] of before.files) requireContent(hash, `${client.name}:${file}, at the start of a pass that ended 0`);
      const outcome = run.killed ? `killed after ${killAfterMs} ms` : run.hung ? 'HUNG (killed after the limit)' : `exit ${run.code}`;
      note(`  sync ${client.name}${proxy.cutting() ? ' (cutting)' : ''}: ${outcome} in ${run.ms} ms`);
      // SYNC_VERBOSE=1 keeps every pass's actions in steps.log, to follow a content a replay loses.
      if (process.env.SYNC_VERBOSE) note(indent(run.output.trimEnd()));
      else if (!run.killed && run.code !== 0) note(indent(lastLines(run.output, 6)));
      return run;
    };

    const webStep = async (view: ServerView): Promise<string | undefined> => {
      const folders = ['', ...view.folderIds.keys()];
      const files = [...view.fileIds.keys()];
      const folderId = (folder: string) => (folder === '' ? null : (view.folderIds.get(folder) ?? null));
      const taken = (folder: string, name: string) =>
        [...view.tree.folders, ...view.tree.files.keys()].some(
          (item) => parentOf(item) === folder && siblingKey(baseName(item)) === siblingKey(name),
        );
      const upload = async (folder: string, name: string, conflict: 'fail' | 'replace') => {
        const content = newContent(random, nextNumber(), true);
        const answer = await web.upload(folderId(folder), name, content, conflict);
        if (answer.status === 201) requireContent(hashBytes(content), `web:${join(folder, name)}`);
        return answer.status;
      };
      const operation = random.weighted({
        upload: 5,
        modify: 4,
        renameFile: 2,
        moveFile: 2,
        deleteFile: 2,
        mkdir: 2,
        renameFolder: 1,
        moveFolder: 1,
        deleteFolder: 1,
      });
      switch (operation) {
        case 'upload': {
          const folder = random.pick(folders);
          const name = newFileName(random, nextNumber());
          if (taken(folder, name)) return undefined;
          return `web upload ${join(folder, name)} -> ${await upload(folder, name, 'fail')}`;
        }
        case 'modify': {
          if (files.length === 0) return undefined;
          const file = random.pick(files);
          return `web modify ${file} -> ${await upload(parentOf(file), baseName(file), 'replace')}`;
        }
        case 'renameFile': {
          if (files.length === 0) return undefined;
          const file = random.pick(files);
          const name = newFileName(random, nextNumber());
          const answer = await web.renameOrMoveFile(view.fileIds.get(file) as string, { name });
          return `web rename ${file} -> ${name}: ${answer.status}`;
        }
        case 'moveFile': {
          if (files.length === 0) return undefined;
          const file = random.pick(files);
          const folder = random.pick(folders);
          if (folder === parentOf(file)) return undefined;
          const answer = await web.renameOrMoveFile(view.fileIds.get(file) as string, { folderId: folderId(folder) });
          return `web move ${file} -> ${folder || '/'}: ${answer.status}`;
        }
        case 'deleteFile': {
          if (files.length === 0) return undefined;
          const file = random.pick(files);
          return `web delete ${file}: ${(await web.deleteFile(view.fileIds.get(file) as string)).status}`;
        }
        case 'mkdir': {
          const parent = random.pick(folders);
          const name = newFolderName(random, nextNumber());
          return `web mkdir ${join(parent, name)}: ${(await web.createFolder(name, folderId(parent))).status}`;
        }
        case 'renameFolder': {
          if (folders.length < 2) return undefined;
          const folder = random.pick(folders.slice(1));
          const name = newFolderName(random, nextNumber());
          const answer = await web.renameOrMoveFolder(view.folderIds.get(folder) as string, { name });
          return `web rename folder ${folder} -> ${name}: ${answer.status}`;
        }
        case 'moveFolder': {
          if (folders.length < 2) return undefined;
          const folder = random.pick(folders.slice(1));
          const into = random.pick(folders);
          if (into === folder || into.startsWith(`${folder}/`) || into === parentOf(folder)) return undefined;
          const answer = await web.renameOrMoveFolder(view.folderIds.get(folder) as string, { parentId: folderId(into) });
          return `web move folder ${folder} -> ${into || '/'}: ${answer.status}`;
        }
        case 'deleteFolder': {
          if (folders.length < 2) return undefined;
          const folder = random.pick(folders.slice(1));
          return `web delete folder ${folder}: ${(await web.deleteFolder(view.folderIds.get(folder) as string)).status}`;
        }
      }
    };

    /** The same file changed on two sides between passes: a device and the web, or both devices. */
    const concurrentEdit = async (): Promise<string | undefined> => {
      const device = random.pick(clients);
      const local = locals.get(device) as ReturnType<typeof localActor>;
      const onDisk = await local.files();
      if (random.chance(0.5)) {
        const view = await web.view();
        const shared = onDisk.filter((file) => view.fileIds.has(file));
        if (shared.length === 0) return undefined;
        const file = random.pick(shared);
        await local.modify(file);
        const content = newContent(random, nextNumber(), false);
        const answer = await web.upload(view.folderIds.get(parentOf(file)) ?? null, baseName(file), content, 'replace');
        if (answer.status === 201) requireContent(hashBytes(content), `web:${file} (concurrent edit)`);
        return `concurrent edit of ${file}: ${device.name} and the web (${answer.status})`;
      }
      const other = locals.get(device === alpha ? beta : alpha) as ReturnType<typeof localActor>;
      const otherFiles = new Set(await other.files());
      const shared = onDisk.filter((file) => otherFiles.has(file));
      if (shared.length === 0) return undefined;
      const file = random.pick(shared);
      await local.modify(file);
      await other.modify(file);
      return `concurrent edit of ${file} on alpha and beta`;
    };

    for (let step = 1; step <= options.ops; step += 1) {
      const kind = random.weighted({ local: 40, web: 18, sync: 25, syncBoth: 5, concurrent: 4, fault: options.faults ? 8 : 0 });
      let did: string | undefined;
      if (kind === 'local') {
        const device = random.pick(clients);
        const operation = random.weighted<LocalOperation>({
          createFile: 8,
          modifyFile: 6,
          renameFile: 3,
          moveFile: 3,
          deleteFile: 3,
          mkdirDeep: 3,
          renameFolder: 1,
          moveFolder: 1,
          deleteFolder: 1,
          caseOnlyRename: 1,
          caseTwin: 0.5,
          formTwin: 0.5,
        });
        const what = await (locals.get(device) as ReturnType<typeof localActor>).run(operation);
        if (what) stats.local += 1;
        did = what && `${device.name}: ${what}`;
      } else if (kind === 'web') {
        did = await webStep(await web.view());
        if (did) stats.web += 1;
      } else if (kind === 'concurrent') {
        did = await concurrentEdit();
        if (did) stats.concurrent += 1;
      } else if (kind === 'sync') {
        const device = random.pick(clients);
        const killAfterMs = options.faults && random.chance(0.2) ? random.int(30, 2500) : undefined;
        note(`#${step} pass of ${device.name}`);
        await runPass(device, killAfterMs);
        continue;
      } else if (kind === 'syncBoth') {
        // Both devices at once: their uploads, moves and deletions race on the server.
        note(`#${step} passes of alpha and beta at the same time`);
        await Promise.all([runPass(alpha), runPass(beta)]);
        continue;
      } else if (random.chance(0.3)) {
        await server.restart();
        stats.restarts += 1;
        did = 'server killed (SIGKILL) and started again';
      } else {
        proxy.setCutting(!proxy.cutting());
        stats.proxyToggles += 1;
        did = `proxy cutting ${proxy.cutting() ? 'on' : 'off'}`;
      }
      if (did) note(`#${step} ${did}`);
    }

    // Quiesce: no more faults; alpha then beta until both end 0 and the three trees agree.
    proxy.setCutting(false);
    note('quiesce');
    const readTrees = async () => ({
      alpha: withoutEmptyShares(await readLocalTree(alpha.dir)),
      beta: withoutEmptyShares(await readLocalTree(beta.dir)),
      server: (await web.view()).tree,
    });
    const treeDiffs = (trees: { alpha: Tree; beta: Tree; server: Tree }) => [
      ...diffTrees(trees.alpha, 'alpha', trees.server, 'server'),
      ...diffTrees(trees.beta, 'beta', trees.server, 'server'),
    ];
    let converged: { alpha: Tree; beta: Tree; server: Tree } | undefined;
    let lastRuns: CommandRun[] = [];
    for (let round = 1; round <= QUIESCE_ROUNDS && !converged; round += 1) {
      lastRuns = [await runPass(alpha), await runPass(beta)];
      if (lastRuns.every((run) => run.code === 0)) {
        const trees = await readTrees();
        if (treeDiffs(trees).length === 0) converged = trees;
      }
    }
    if (!converged) {
      const trees = await readTrees();
      problems.push(
        `(a) the sides did not converge in ${QUIESCE_ROUNDS} rounds of alpha then beta --once (last exits ${lastRuns.map((run) => run.code).join(', ')}):`,
        ...treeDiffs(trees).map((line) => `  ${line}`),
        ...lastRuns.filter((run) => run.code !== 0).map((run) => indent(lastLines(run.output, 15))),
      );
    } else {
      // A pass over a converged tree must change nothing, on either side.
      const runs = [await runPass(alpha), await runPass(beta)];
      const after = await readTrees();
      const changed = [
        ...diffTrees(converged.alpha, 'alpha before', after.alpha, 'alpha after'),
        ...diffTrees(converged.beta, 'beta before', after.beta, 'beta after'),
        ...diffTrees(converged.server, 'server before', after.server, 'server after'),
      ];
      if (runs.some((run) => run.code !== 0) || changed.length > 0) {
        problems.push(
          `(a) a pass over the converged tree was not a no-op (exits ${runs.map((run) => run.code).join(', ')}):`,
          ...changed.map((line) => `  ${line}`),
        );
      }
    }

    const final = await readTrees();
    // (c) Names nobody made: numbered ones, and conflicted copies of identical content.
    for (const [side, tree] of Object.entries(final)) {
      for (const item of [...tree.folders, ...tree.files.keys()]) {
        if (looksNumbered(baseName(item))) problems.push(`(c) ${side} holds ${item}: a numbered name no actor made`);
      }
      for (const [file, hash] of tree.files) {
        const match = CONFLICT_COPY.exec(file);
        // Empty is the one content two edits share (newContent numbers every other): a copy and its original both emptied later is no fault (seed 1359834947).
        if (match && hash !== EMPTY_CONTENT && tree.files.get(`${match[1]}${match[2] ?? ''}`) === hash)
          problems.push(`(c) ${side}: ${file} holds the same bytes as its original`);
      }
    }
    for (const [side, tree] of Object.entries(final)) {
      for (const clash of tree.clashes ?? []) problems.push(`(c) ${side} holds ${clash} beside a name the server counts as the same`);
    }
    const conflictCopies = [...final.server.files.keys()].filter((file) => CONFLICT_COPY.test(file)).length;

    // (b) Every content that must survive is live, in the server's Trash or versions, or in a local trash folder.
    await server.kill();
    const kept = serverContents(server.databaseFile);
    for (const client of clients) {
      for (const hash of (await readLocalTree(client.dir)).files.values()) kept.add(hash);
      for (const hash of await hashesUnder(path.join(client.dir, PRIVATE_AREA, 'trash'))) kept.add(hash);
    }
    for (const [hash, origin] of required) if (!kept.has(hash)) problems.push(`(b) lost: content ${hash.slice(0, 12)} (${origin})`);

    const summary =
      `seed ${options.seed}: ${options.ops} steps (${stats.local} local, ${stats.web} web, ${stats.concurrent} concurrent edits), ` +
      `${stats.passes} passes (${stats.ok} exit 0, ${stats.failed} failed, ${stats.killed} killed, ${stats.hung} hung), ` +
      `${stats.restarts} server restarts, ${stats.proxyToggles} proxy toggles, ${proxy.cuts()} connections cut, ` +
      `${required.size} contents checked, ${final.server.files.size} files at the end, ${conflictCopies} conflicted copies, versioning ${versioning ? 'on' : 'off'}`;
    return { problems, log, summary };
  } finally {
    await proxy.close();
    await server.kill();
  }
}

/** `tree` without an empty `Shared with me` at its root (the client's virtual folder, when nothing is shared). */
function withoutEmptyShares(tree: Tree): Tree {
  const shares = 'Shared with me';
  const inside = [...tree.folders, ...tree.files.keys()].some((item) => item.startsWith(`${shares}/`));
  if (tree.folders.has(shares) && !inside) tree.folders.delete(shares);
  return tree;
}

function lastLines(text: string, count: number): string {
  return text.trimEnd().split('\n').slice(-count).join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `      ${line}`)
    .join('\n');
}
