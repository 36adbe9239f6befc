#!/usr/bin/env python3
"""Random legal chess games as PGN, for timing pgn-extract (bench/README.md).

Each game plays a uniformly random legal move until checkmate, stalemate,
the fifty-move rule (100 plies without a capture or a pawn move), bare
material (king against king, king and one minor piece against king) or a
cap on its length; moves are written in SAN with check and mate marks and
the Seven Tag Roster. The standard library only, deterministic for a seed.

    random_chess_pgn.py --games 3000 --seed 1 > corpus.pgn

The count of plies written goes to standard error.
"""

import argparse
import random
import sys

# A 10x12 mailbox: squares 21..98, a1 = 21, h8 = 98; off-board is None.
EMPTY = "."
N, S, E, W = 10, -10, 1, -1
KNIGHT = (21, 19, 12, 8, -21, -19, -12, -8)
KING = (N, S, E, W, N + E, N + W, S + E, S + W)
ROOK_DIRS = (N, S, E, W)
BISHOP_DIRS = (N + E, N + W, S + E, S + W)
QUEEN_DIRS = ROOK_DIRS + BISHOP_DIRS
SLIDES = {"B": BISHOP_DIRS, "R": ROOK_DIRS, "Q": QUEEN_DIRS}
FILES = "abcdefgh"


def sq(file, rank):
    return 21 + file + 10 * rank


def name(square):
    return FILES[(square - 21) % 10] + str((square - 21) // 10 + 1)


def on_board(square):
    return 21 <= square <= 98 and 1 <= square % 10 <= 8


ON_BOARD = [on_board(i) for i in range(120)]


class Position:
    def __init__(self):
        self.board = [None] * 120
        for i in range(120):
            if ON_BOARD[i]:
                self.board[i] = EMPTY
        back = "RNBQKBNR"
        for f in range(8):
            self.board[sq(f, 0)] = back[f]
            self.board[sq(f, 1)] = "P"
            self.board[sq(f, 6)] = "p"
            self.board[sq(f, 7)] = back[f].lower()
        self.white = True
        self.castling = {"K", "Q", "k", "q"}
        self.ep = None  # the square a pawn passed over, capturable en passant
        self.halfmove = 0
        self.kings = {True: sq(4, 0), False: sq(4, 7)}

    def mine(self, piece, white):
        return piece not in (None, EMPTY) and piece.isupper() == white

    def attacked(self, target, by_white):
        b = self.board
        knight, king, pawn = ("N", "K", "P") if by_white else ("n", "k", "p")
        bishop, rook, queen = ("B", "R", "Q") if by_white else ("b", "r", "q")
        for d in KNIGHT:
            if b[target + d] == knight:
                return True
        for d in KING:
            if b[target + d] == king:
                return True
        # A white pawn attacks from below, a black one from above.
        back = -10 if by_white else 10
        if b[target + back + 1] == pawn or b[target + back - 1] == pawn:
            return True
        for d in ROOK_DIRS:
            s = target + d
            while b[s] == EMPTY:
                s += d
            if b[s] == rook or b[s] == queen:
                return True
        for d in BISHOP_DIRS:
            s = target + d
            while b[s] == EMPTY:
                s += d
            if b[s] == bishop or b[s] == queen:
                return True
        return False

    def in_check(self):
        return self.attacked(self.kings[self.white], not self.white)

    def pseudo_moves(self):
        """(from, to, promotion, kind) with kind in '', 'ep', 'castle'."""
        b = self.board
        white = self.white
        out = []
        for s in range(21, 99):
            p = b[s]
            if p is None or p == EMPTY or p.isupper() != white:
                continue
            kind = p.upper()
            if kind == "P":
                up = 10 if white else -10
                start_rank = 1 if white else 6
                last_rank = 7 if white else 0
                t = s + up
                if b[t] == EMPTY:
                    if (t - 21) // 10 == last_rank:
                        for promo in "QRBN":
                            out.append((s, t, promo, ""))
                    else:
                        out.append((s, t, "", ""))
                        if (s - 21) // 10 == start_rank and b[t + up] == EMPTY:
                            out.append((s, t + up, "", ""))
                for t in (s + up - 1, s + up + 1):
                    q = b[t]
                    if q is not None and q != EMPTY and q.isupper() != white:
                        if (t - 21) // 10 == last_rank:
                            for promo in "QRBN":
                                out.append((s, t, promo, ""))
                        else:
                            out.append((s, t, "", ""))
                    elif t == self.ep:
                        out.append((s, t, "", "ep"))
            elif kind == "N" or kind == "K":
                for d in KNIGHT if kind == "N" else KING:
                    q = b[s + d]
                    if q is not None and (q == EMPTY or q.isupper() != white):
                        out.append((s, s + d, "", ""))
            else:
                for d in SLIDES[kind]:
                    t = s + d
                    while b[t] == EMPTY:
                        out.append((s, t, "", ""))
                        t += d
                    q = b[t]
                    if q is not None and q.isupper() != white:
                        out.append((s, t, "", ""))
        # Castling: rights, empty squares between, not out of, through or
        # into check (the last is checked with the other moves).
        rank = 0 if white else 7
        king_sq = sq(4, rank)
        k_right, q_right = ("K", "Q") if white else ("k", "q")
        if b[king_sq] == ("K" if white else "k") and not self.attacked(king_sq, not white):
            if (k_right in self.castling and b[sq(5, rank)] == EMPTY and b[sq(6, rank)] == EMPTY
                    and not self.attacked(sq(5, rank), not white)):
                out.append((king_sq, sq(6, rank), "", "castle"))
            if (q_right in self.castling and b[sq(3, rank)] == EMPTY and b[sq(2, rank)] == EMPTY
                    and b[sq(1, rank)] == EMPTY and not self.attacked(sq(3, rank), not white)):
                out.append((king_sq, sq(2, rank), "", "castle"))
        return out

    def make(self, move):
        """Plays a move; returns what undo needs."""
        s, t, promo, kind = move
        b = self.board
        white = self.white
        undo = (move, b[s], b[t], set(self.castling), self.ep, self.halfmove, dict(self.kings))
        piece = b[s]
        captured = b[t] != EMPTY
        b[t] = piece
        b[s] = EMPTY
        if kind == "ep":
            b[t + (-10 if white else 10)] = EMPTY
            captured = True
        if promo:
            b[t] = promo if white else promo.lower()
        if kind == "castle":
            rank = 0 if white else 7
            if t == sq(6, rank):
                b[sq(5, rank)], b[sq(7, rank)] = b[sq(7, rank)], EMPTY
            else:
                b[sq(3, rank)], b[sq(0, rank)] = b[sq(0, rank)], EMPTY
        if piece.upper() == "K":
            self.kings[white] = t
        for square, right in ((sq(4, 0), "KQ"), (sq(7, 0), "K"), (sq(0, 0), "Q"),
                              (sq(4, 7), "kq"), (sq(7, 7), "k"), (sq(0, 7), "q")):
            if s == square or t == square:
                for r in right:
                    self.castling.discard(r)
        self.ep = None
        if piece.upper() == "P" and abs(t - s) == 20:
            self.ep = (s + t) // 2
        self.halfmove = 0 if captured or piece.upper() == "P" else self.halfmove + 1
        self.white = not white
        return undo

    def undo(self, undo):
        (s, t, promo, kind), from_piece, to_piece, castling, ep, halfmove, kings = undo
        b = self.board
        self.white = not self.white
        white = self.white
        b[s] = from_piece
        b[t] = to_piece
        if kind == "ep":
            b[t + (-10 if white else 10)] = "p" if white else "P"
        if kind == "castle":
            rank = 0 if white else 7
            if t == sq(6, rank):
                b[sq(7, rank)], b[sq(5, rank)] = b[sq(5, rank)], EMPTY
            else:
                b[sq(0, rank)], b[sq(3, rank)] = b[sq(3, rank)], EMPTY
        self.castling = castling
        self.ep = ep
        self.halfmove = halfmove
        self.kings = kings

    def legal_moves(self):
        out = []
        for m in self.pseudo_moves():
            u = self.make(m)
            if not self.attacked(self.kings[not self.white], self.white):
                out.append(m)
            self.undo(u)
        return out

    def bare(self):
        """Neither side can mate: K v K, K and one bishop or knight v K."""
        pieces = [p.upper() for p in self.board[21:99] if p not in (None, EMPTY)]
        others = [p for p in pieces if p != "K"]
        return not others or (len(others) == 1 and others[0] in "BN")

    def san(self, move, legal):
        s, t, promo, kind = move
        b = self.board
        piece = b[s].upper()
        if kind == "castle":
            return "O-O" if t > s else "O-O-O"
        capture = b[t] != EMPTY or kind == "ep"
        if piece == "P":
            text = (FILES[(s - 21) % 10] + "x" if capture else "") + name(t)
            return text + ("=" + promo if promo else "")
        rivals = [m[0] for m in legal if m[1] == t and m[0] != s and b[m[0]].upper() == piece]
        text = piece
        if rivals:
            same_file = any((r - 21) % 10 == (s - 21) % 10 for r in rivals)
            same_rank = any((r - 21) // 10 == (s - 21) // 10 for r in rivals)
            if not same_file:
                text += FILES[(s - 21) % 10]
            elif not same_rank:
                text += str((s - 21) // 10 + 1)
            else:
                text += name(s)
        return text + ("x" if capture else "") + name(t)


def random_game(rng, max_plies):
    pos = Position()
    sans = []
    result = "1/2-1/2"
    legal = pos.legal_moves()
    while True:
        if not legal:
            if pos.in_check():
                sans[-1] += "#"
                result = "0-1" if pos.white else "1-0"
            break
        if pos.halfmove >= 100 or pos.bare() or len(sans) >= max_plies:
            result = "1/2-1/2" if len(sans) < max_plies else "*"
            break
        move = legal[rng.randrange(len(legal))]
        text = pos.san(move, legal)
        pos.make(move)
        legal = pos.legal_moves()
        if legal and pos.in_check():
            text += "+"
        sans.append(text)
    return sans, result


def write_game(out, number, rng, sans, result):
    tags = [("Event", "Scribe validation benchmark"), ("Site", "Random play"),
            ("Date", "2026.11.29"), ("Round", str(number + 1)),
            ("White", "Player %d" % rng.randrange(1000)), ("Black", "Player %d" % rng.randrange(1000)),
            ("Result", result)]
    for key, value in tags:
        out.write('[%s "%s"]\n' % (key, value))
    out.write("\n")
    line = ""
    tokens = []
    for i, san in enumerate(sans):
        if i % 2 == 0:
            tokens.append("%d." % (i // 2 + 1))
        tokens.append(san)
    tokens.append(result)
    for token in tokens:
        if line and len(line) + 1 + len(token) > 79:
            out.write(line + "\n")
            line = token
        else:
            line = line + " " + token if line else token
    out.write(line + "\n\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-plies", type=int, default=1000)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    plies = 0
    out = sys.stdout
    for g in range(args.games):
        sans, result = random_game(rng, args.max_plies)
        plies += len(sans)
        write_game(out, g, rng, sans, result)
    print("%d games, %d plies" % (args.games, plies), file=sys.stderr)


if __name__ == "__main__":
    main()
