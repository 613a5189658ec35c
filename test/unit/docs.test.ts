// The documentation: a README short enough to read, in short sentences, with the test command CI
// runs; links between the pages that lead somewhere; and the help topics' blocks in docs/reference
// as `svc help` renders them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { HELP_TOPICS } from '../../src/commands/help/topics.js';
import { processIO } from '../../src/core/io.js';
import { spliceBlock, topicBlocks } from '../../src/docs/markdown.js';
import { buildProgram } from '../../src/main.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

function markdownUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const PAGES = ['README.md', 'CONTRIBUTING.md', ...markdownUnder('docs')];

/**
 * The prose of a page, as paragraphs: the lines outside fenced code, HTML comments, tables and
 * headings, joined until a blank line; each list item a paragraph of its own.
 */
function paragraphs(markdown: string): string[] {
  const found: string[] = [];
  let lines: string[] = [];
  const end = () => {
    if (lines.length > 0) found.push(lines.join(' '));
    lines = [];
  };
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const prose =
      !fenced && !/^\s*```/.test(line) && line.trim() !== '' && !/^\s*(\||#|<!--)/.test(line);
    const item = /^\s*([-*]|\d+\.)\s+/.exec(line);
    if (!prose || item) end();
    if (prose) lines.push(line.slice(item?.[0].length ?? 0).trim());
  }
  end();
  return found;
}

/**
 * The sentences of a page's prose: a paragraph split after `.`, `!` or `?` where a new sentence
 * starts.
 */
function sentences(markdown: string): string[] {
  return paragraphs(markdown)
    .flatMap((paragraph) => paragraph.split(/(?<=[.!?])\s+(?=[A-Z`(*[])/))
    .filter((sentence) => /[A-Za-z]/.test(sentence));
}

const words = (sentence: string) => sentence.split(/\s+/).filter(Boolean).length;

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchorsOf(markdown: string): Set<string> {
  let fenced = false;
  const anchors = new Set<string>();
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) anchors.add(anchorOf(heading[1]!));
  }
  return anchors;
}

/** Relative links of a page, `[text](target)`, outside code. */
function relativeLinks(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target!)
    .filter((target) => !/^[a-z]+:/i.test(target));
}

describe('the README', () => {
  const readme = read('README.md');

  it('is at most 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('is written in sentences of fewer than 25 words on average', () => {
    const all = sentences(readme);
    expect(all.length).toBeGreaterThan(20);
    const average = all.reduce((sum, sentence) => sum + words(sentence), 0) / all.length;
    expect(average).toBeLessThan(25);
  });

  it('gives the test command CI runs, byte for byte', () => {
    const ci = read('.ci/run').trimEnd().split('\n').at(-1)!;
    expect(ci).toMatch(/^npm ci && /);
    expect(readme.split('\n')).toContain(ci);
  });
});

describe('links between the pages', () => {
  it.each(PAGES)('%s links only to files that exist, and to headings they have', (page) => {
    const broken: string[] = [];
    for (const link of relativeLinks(read(page))) {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target =
        path === '' ? page : relative(ROOT, join(ROOT, dirname(page), decodeURIComponent(path)));
      if (!existsSync(join(ROOT, target))) broken.push(`${link} (no file ${target})`);
      else if (
        anchor !== undefined &&
        target.endsWith('.md') &&
        !anchorsOf(read(target)).has(anchor)
      )
        broken.push(`${link} (no heading #${anchor} in ${target})`);
    }
    expect(broken).toEqual([]);
  });

  it('name no document outside the repository', () => {
    for (const page of PAGES)
      expect(read(page), page).not.toMatch(
        /interface-spec|service-reference|cli-contract|\/work\//,
      );
  });
});

describe('the help topics in docs/reference', () => {
  const program = buildProgram({ action: () => async () => {} }, processIO());

  it.each(topicBlocks(program, HELP_TOPICS).map((block) => [block.topic, block] as const))(
    "svc help %s is its page's block, as the build writes it",
    (_, { topic, page, markdown }) => {
      const content = read(page);
      // The page as it is equals the page with the block written anew: nobody edited one without
      // the other.
      expect(content, `${page}: run npm run build and commit it`).toBe(
        spliceBlock(content, topic, markdown),
      );
    },
  );
});

describe('citations of the docs in the code', () => {
  /** Files under a folder of the repository, recursively. */
  const filesUnder = (folder: string): string[] =>
    readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? filesUnder(join(folder, entry.name))
        : /\.(ts|mjs|cjs)$/.test(entry.name)
          ? [join(folder, entry.name)]
          : [],
    );

  it('name pages that exist, and headings those pages have', () => {
    const wrong: string[] = [];
    for (const file of ['src', 'test', 'scripts', 'bench'].flatMap(filesUnder)) {
      // `docs/reference/output.md, "Tables"`, and `"Reading replies" and "CSV"` after it.
      for (const [, page, headings] of read(file).matchAll(
        /\b(docs\/[\w/-]+\.md)((?:,? "[^"\n]+"(?: and "[^"\n]+")?)?)/g,
      )) {
        if (!existsSync(join(ROOT, page!))) {
          wrong.push(`${file}: ${page} does not exist`);
          continue;
        }
        const anchors = anchorsOf(read(page!));
        for (const [, heading] of headings!.matchAll(/"([^"]+)"/g))
          if (!anchors.has(anchorOf(heading!)))
            wrong.push(`${file}: ${page} has no heading "${heading}"`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('cite no document outside the repository', () => {
    const outside = ['src', 'test', 'scripts', 'bench']
      .flatMap(filesUnder)
      .filter(
        (file) =>
          file !== 'test/unit/docs.test.ts' &&
          /\bcontract\b|interface-spec|service-reference|\/work\//i.test(read(file)),
      );
    expect(outside).toEqual([]);
  });
});
