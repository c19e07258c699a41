// @ts-check
// The tree of variations of the analysis board, kept in the browser: each node is a move with
// its comment and its continuations, the first of which is the main line (as in PGN and in the
// server's tree JSON, docs/study.md). Positions are filled in as the server computes them; the
// rules live on the server, this module only keeps the shape of the analysis.

// A step of a tree is a move in official notation or a bribe (rules.md 7.3), written
// `bribe 1/0/0 accepted` (the proposer hands the marbles over and passes: a turn) or
// `bribe 1/0/0 rejected` (nothing changes, the same player moves next: no turn).
const BRIBE_RE = /^\(?\s*bribe\s+(\d+\/\d+\/\d+)\s+(accepted|rejected)\s*\)?\s*-?\s*$/i;

/**
 * The bribe `text` describes, read as leniently as the server reads it (`(bribe 1/0/0
 * accepted) -` too): {marbles: '1/0/0', accepted, text: the official form}, or null for a move.
 */
export function bribeOf(text) {
  const m = BRIBE_RE.exec(text || '');
  if (!m) return null;
  const accepted = m[2].toLowerCase() === 'accepted';
  return { marbles: m[1], accepted, text: `bribe ${m[1]} ${accepted ? 'accepted' : 'rejected'}` };
}

/** True when the step `text` is a turn of the game: anything but a rejected bribe. */
export function isTurn(text) {
  const b = bribeOf(text);
  return !b || b.accepted;
}

/** One node: the move that led here (null at the root), its comment, what follows. */
export class Node {
  constructor(move, parent = null) {
    this.move = move;
    this.parent = parent;
    this.comment = '';
    this.children = [];
    this.position = null; // the position after the move (the start at the root), once known
    this.mark = null; // a review's verdict on the move: {mark, best, …}
  }

  /** The number of moves from the start to this node. */
  get ply() {
    let n = 0;
    for (let x = this; x.parent; x = x.parent) n += 1;
    return n;
  }

  /** The moves from the start to this node. */
  line() {
    const out = [];
    for (let x = this; x.parent; x = x.parent) out.push(x.move);
    return out.reverse();
  }

  /** The nodes from the root to this one, both included. */
  path() {
    const out = [];
    for (let x = this; x; x = x.parent) out.push(x);
    return out.reverse();
  }

  /** True when this node and all before it are first children: it lies on the main line. */
  get mainLine() {
    for (let x = this; x.parent; x = x.parent) if (x.parent.children[0] !== x) return false;
    return true;
  }

  /** The child reached by `move`, if played already. */
  child(move) {
    return this.children.find((c) => c.move === move) || null;
  }
}

export class Tree {
  /** A tree whose root is the position `start` (a position string). */
  constructor(start, headers = {}) {
    this.root = new Node(null);
    this.root.position = start;
    this.headers = { ...headers };
  }

  get start() {
    return this.root.position;
  }

  /**
   * Plays `move` after `node`: the existing child if that move was played before, else a new
   * one (the main line if the node had none, a variation otherwise). Returns the child.
   */
  add(node, move, position = null) {
    let c = node.child(move);
    if (!c) {
      c = new Node(move, node);
      node.children.push(c);
    }
    if (position) c.position = position;
    return c;
  }

  /**
   * Promotes the variation holding `node` one level, as lichess does: the nearest node on the
   * way back to the root that is not its parent's first child becomes the first. Returns
   * whether anything moved (nothing does on the main line).
   */
  promote(node) {
    for (let x = node; x.parent; x = x.parent) {
      const siblings = x.parent.children;
      const k = siblings.indexOf(x);
      if (k > 0) {
        siblings.splice(k, 1);
        siblings.unshift(x);
        return true;
      }
    }
    return false;
  }

  /** Deletes `node` and everything after it; returns its parent (null for the root). */
  remove(node) {
    if (!node.parent) return null;
    const siblings = node.parent.children;
    siblings.splice(siblings.indexOf(node), 1);
    return node.parent;
  }

  /** The node at the end of `moves` from the root, as far as the tree holds them: {node, rest}. */
  follow(moves) {
    let node = this.root;
    let k = 0;
    for (; k < moves.length; k += 1) {
      const c = node.child(moves[k]);
      if (!c) break;
      node = c;
    }
    return { node, rest: moves.slice(k) };
  }

  /** The main line's nodes after the root. */
  mainLine() {
    const out = [];
    for (let x = this.root.children[0]; x; x = x.children[0]) out.push(x);
    return out;
  }

  /** Every node, depth first (main line first). */
  *nodes(from = this.root) {
    yield from;
    for (const c of from.children) yield* this.nodes(c);
  }

  /** The tree JSON of the server's routes: {start, headers, comment, children: [{move, comment, children}]}. */
  toJSON() {
    const node = (n) => {
      const out = { move: n.move, children: n.children.map(node) };
      if (n.comment) out.comment = n.comment;
      return out;
    };
    const out = { start: this.start, headers: { ...this.headers }, children: this.root.children.map(node) };
    if (this.root.comment) out.comment = this.root.comment;
    return out;
  }

  /** A tree from the server's tree JSON. Throws an Error naming what is missing. */
  static fromJSON(json) {
    if (!json || typeof json.start !== 'string') throw new Error('the tree has no start position');
    const tree = new Tree(json.start, json.headers || {});
    tree.root.comment = typeof json.comment === 'string' ? json.comment : '';
    const walk = (parent, kids, depth) => {
      for (const k of kids || []) {
        if (!k || typeof k.move !== 'string') throw new Error(`a node ${depth} moves deep has no move`);
        const c = new Node(k.move, parent);
        c.comment = typeof k.comment === 'string' ? k.comment : '';
        parent.children.push(c);
        walk(c, k.children, depth + 1);
      }
    };
    walk(tree.root, json.children, 1);
    return tree;
  }

  /** A tree holding one line of moves (a game), with its positions when known. */
  static fromLine(start, moves, positions = null, headers = {}) {
    const tree = new Tree(start, headers);
    let node = tree.root;
    moves.forEach((m, k) => {
      node = tree.add(node, m, positions ? positions[k + 1] || null : null);
    });
    return tree;
  }
}
