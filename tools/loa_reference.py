"""Write ``tests/data/loa_perft.txt``: perft counts of Lines of Action positions, counted by
a program we did not write, the Lines of Action engine of the Riddles.io platform (Java,
github: riddlesio/linesofaction-engine-java), whose move generator and connection test this
script drives through a small Java perft of its own.

    python tools/loa_reference.py --riddles PATH [--depth 4] [--cap 200000]

PATH is a checkout of that repository (its ``src/java`` is compiled here with ``javac``;
nothing of it is kept). The positions are the start and positions reached by seeded random
play with the shipped description (``game/logic/rules/games/lines-of-action.txt``); only
their counts come from the other program. Its rules for a count: a position where either
player's pieces form one group ends the game (its paths stop there, counting 0 unless the
depth is reached); a player with no move passes (a move); both without a move ends the game.
Each line of the file is a position in the game's generic notation, ``;`` and the counts
from depth 1 on.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.logic.rules.catalogue import rulebook  # noqa: E402
from game.logic.rules.notation import position_text  # noqa: E402

OUT = ROOT / "tests" / "data" / "loa_perft.txt"

#: The perft driver, ours: it reads "ROWS SIDE DEPTH CAP" lines (ROWS: the board from rank 8
#: down, 64 characters of 0, 1 and ., SIDE 0 or 1) and prints the counts.
DRIVER = r"""
import io.riddles.linesofaction.game.board.*;
import io.riddles.linesofaction.game.move.LoaMove;
import java.awt.Point;
import java.io.*;
import java.util.*;

public class Perft {
    static List<Point[]> moves(LoaBoard board, int side) {
        List<Point[]> out = new ArrayList<>();
        for (int y = 0; y < 8; y++) {
            for (int x = 0; x < 8; x++) {
                Point at = new Point(x, y);
                if (board.getFieldAt(at) == null) continue;
                if (!board.getFieldAt(at).toString().equals(Integer.toString(side))) continue;
                for (Point to : board.getValidPointsForPiece(board.getFieldAt(at))) {
                    out.add(new Point[] {at, to});
                }
            }
        }
        return out;
    }

    static long perft(LoaBoard board, int side, int depth) {
        if (depth == 0) return 1;
        if (!board.getConnectedPlayerIds().isEmpty()) return 0;
        List<Point[]> list = moves(board, side);
        if (list.isEmpty()) {
            if (moves(board, 1 - side).isEmpty()) return 0;
            return perft(board, 1 - side, depth - 1);
        }
        if (depth == 1) return list.size();
        long total = 0;
        for (Point[] m : list) {
            LoaBoard next = new LoaBoard(board);
            next.processMove(new LoaMove(new Point(m[0]), new Point(m[1])), side);
            total += perft(next, 1 - side, depth - 1);
        }
        return total;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.trim().split(" ");
            StringBuilder cells = new StringBuilder();
            for (int i = 0; i < 64; i++) {
                if (i > 0) cells.append(',');
                cells.append(f[0].charAt(i));
            }
            LoaBoard board = new LoaBoard(8, 8, 2, cells.toString());
            int side = Integer.parseInt(f[1]);
            int depth = Integer.parseInt(f[2]);
            long cap = Long.parseLong(f[3]);
            StringBuilder counts = new StringBuilder();
            for (int d = 1; d <= depth; d++) {
                long n = perft(board, side, d);
                counts.append(d > 1 ? " " : "").append(n);
                if (n >= cap) break;
            }
            System.out.println(counts);
            System.out.flush();
        }
    }
}
"""


def positions(count: int, seed: int) -> list[str]:
    """The start, ``count`` positions of seeded random games, and as many taken three
    plies before a random game ended (so that the counts meet the game's end), in generic
    notation."""
    e = rulebook("lines-of-action")
    rng = random.Random(seed)
    out = [position_text(e, e.start())]
    while len(out) < count + 1:
        pos = e.start()
        for _ in range(rng.randrange(8, 90)):
            moves = e.legal(pos)
            if not moves or e.outcome(pos, moves) is not None:
                break
            e.make(pos, rng.choice(moves))
        else:
            out.append(position_text(e, pos))
    while len(out) < 2 * count + 1:
        pos = e.start()
        seen = []
        for _ in range(400):
            seen.append(position_text(e, pos))
            moves = e.legal(pos)
            if not moves or e.outcome(pos, moves) is not None:
                if len(seen) > 4:
                    out.append(seen[-4])
                break
            e.make(pos, rng.choice(moves))
    return out


def rows_of(text: str) -> tuple[str, int]:
    """A generic position as the driver's 64 characters (rank 8 first) and side."""
    e = rulebook("lines-of-action")
    from game.logic.rules.notation import read_position

    pos = read_position(e, text)
    names = e.design.board.names
    cells = ["."] * 64
    for i, v in enumerate(pos.board):
        if v:
            col, row = ord(names[i][0]) - ord("a"), int(names[i][1:]) - 1
            cells[(7 - row) * 8 + col] = str(e.c.owner[v])
    return "".join(cells), e.player(pos)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--riddles", required=True, help="a checkout of the Riddles engine")
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--cap", type=int, default=200_000, help="no deeper past this count")
    parser.add_argument(
        "--positions", type=int, default=8, help="random positions (and as many near an end)"
    )
    args = parser.parse_args(argv)
    source = Path(args.riddles) / "src" / "java"
    keep = [
        "io/riddles/javainterface/game/data/Board.java",
        "io/riddles/javainterface/game/move/AbstractMove.java",
        "io/riddles/javainterface/exception/InvalidInputException.java",
        "io/riddles/javainterface/exception/InvalidMoveException.java",
        "io/riddles/linesofaction/game/board/LoaBoard.java",
        "io/riddles/linesofaction/game/board/LoaPiece.java",
        "io/riddles/linesofaction/game/board/LoaPieceType.java",
        "io/riddles/linesofaction/game/move/LoaMove.java",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        driver = Path(tmp) / "Perft.java"
        driver.write_text(DRIVER, encoding="utf-8")
        build = Path(tmp) / "classes"
        files = [str(source / k) for k in keep] + [str(driver)]
        subprocess.run(["javac", "-nowarn", "-d", str(build), *files], check=True)
        texts = positions(args.positions, seed=24)
        lines = "".join("{} {} {} {}\n".format(*rows_of(t), args.depth, args.cap) for t in texts)
        done = subprocess.run(
            ["java", "-cp", str(build), "Perft"],
            input=lines,
            capture_output=True,
            text=True,
            check=True,
        )
    out = [
        "# Lines of Action perft, counted by the Riddles.io Lines of Action engine's move"
        " generator; written by tools/loa_reference.py",
    ]
    for text, counts in zip(texts, done.stdout.split("\n"), strict=False):
        print(text, counts, file=sys.stderr)
        out.append(f"{text} ; {counts}")
    OUT.write_text("\n".join(out) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
