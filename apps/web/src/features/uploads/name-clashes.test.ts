import { describe, expect, it } from 'vitest';
import { type ClashAnswer, clashingIndexes, type NameClash, resolveClashes } from './name-clashes';

const clash = (name: string, canReplace = true): NameClash => ({ name, folderName: 'Docs', canReplace });

/** An ask() that answers from a script and records what it was asked. */
function scripted(answers: ClashAnswer[]) {
  const asked: Array<[string, number]> = [];
  const ask = async (question: NameClash, left: number) => {
    asked.push([question.name, left]);
    const answer = answers.shift();
    if (!answer) throw new Error(`asked about ${question.name} with no answer left`);
    return answer;
  };
  return { ask, asked };
}

describe('clashingIndexes', () => {
  it('finds the names the folder holds by the server’s rule: case and composition do not matter', () => {
    expect(clashingIndexes(['Report.PDF', 'new.txt', 'Äpfel.txt'], ['report.pdf', 'A\u0308pfel.txt'])).toEqual([0, 2]);
    expect(clashingIndexes(['a.txt'], [])).toEqual([]);
  });
});

describe('resolveClashes', () => {
  it('asks about each clash in turn, with how many are left', async () => {
    const { ask, asked } = scripted([
      { choice: 'replace', applyToAll: false },
      { choice: 'keep-both', applyToAll: false },
      { choice: 'skip', applyToAll: false },
    ]);
    expect(await resolveClashes([clash('a'), clash('b'), clash('c')], ask)).toEqual(['replace', 'keep-both', 'skip']);
    expect(asked).toEqual([
      ['a', 3],
      ['b', 2],
      ['c', 1],
    ]);
  });

  it('stops asking once an answer applies to all the rest', async () => {
    const { ask, asked } = scripted([
      { choice: 'keep-both', applyToAll: false },
      { choice: 'skip', applyToAll: true },
    ]);
    expect(await resolveClashes([clash('a'), clash('b'), clash('c'), clash('d')], ask)).toEqual(['keep-both', 'skip', 'skip', 'skip']);
    expect(asked.map(([name]) => name)).toEqual(['a', 'b']);
  });

  it('asks about a folder that Replace for all cannot replace, and never replaces a folder', async () => {
    const { ask, asked } = scripted([
      { choice: 'replace', applyToAll: true },
      { choice: 'replace', applyToAll: false },
    ]);
    expect(await resolveClashes([clash('a'), clash('Photos', false), clash('c')], ask)).toEqual(['replace', 'keep-both', 'replace']);
    expect(asked.map(([name]) => name)).toEqual(['a', 'Photos']);
  });

  it('asks nothing when nothing clashes', async () => {
    const { ask, asked } = scripted([]);
    expect(await resolveClashes([], ask)).toEqual([]);
    expect(asked).toEqual([]);
  });
});
