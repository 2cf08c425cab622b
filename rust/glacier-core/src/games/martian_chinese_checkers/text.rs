//! The position text and move text of E.

use super::*;

pub(super) fn hex_name(h: usize) -> String {
    let mut out = String::with_capacity(3);
    write_hex(&mut out, h);
    out
}

/// Appends a hex's text (letter for q, then r + 7) without allocating.
pub(super) fn write_hex(out: &mut String, h: usize) {
    out.push((b'a' + (GEO.q[h] + 6) as u8) as char);
    let number = (GEO.r[h] + 7) as u8;
    if number >= 10 {
        out.push('1');
    }
    out.push((b'0' + number % 10) as char);
}

/// A hex name, `a`..`m` then 1..13 without leading zeros, on the board.
pub(super) fn parse_hex(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let (&letter, number) = bytes.split_first()?;
    if !(b'a'..=b'm').contains(&letter) {
        return None;
    }
    let number = parse_count(std::str::from_utf8(number).ok()?)?;
    if !(1..=13).contains(&number) {
        return None;
    }
    let (q, r) = (i32::from(letter - b'a') - 6, number as i32 - 7);
    if (q + r).abs() > 6 {
        return None;
    }
    let h = GEO.grid[((q + 6) * 13 + r + 6) as usize];
    (h != OFF).then_some(h as usize)
}

/// `<hex>/<level>`.
pub(super) fn parse_place(s: &str) -> Option<(usize, usize)> {
    let (hex, level) = s.split_once('/')?;
    Some((parse_hex(hex)?, parse_count(level)? as usize))
}

type Place = (usize, usize);

/// Movements from the levels below this one have a move-text key (stacks are rarely taller).
const KEYED_LEVELS: usize = 10;

/// Whether the text `a` comes before the text `b` (byte by byte) when each is followed by
/// the byte `end`, as a hex name or a level is followed by the rest of a move text.
const fn comes_before(a: &[u8], b: &[u8], end: u8) -> bool {
    let mut i = 0;
    loop {
        let x = if i < a.len() { a[i] } else { end };
        let y = if i < b.len() { b[i] } else { end };
        if x != y {
            return x < y;
        }
        if i >= a.len() && i >= b.len() {
            return false;
        }
        i += 1;
    }
}

/// The text of hex `h` in its first `len` bytes.
const fn hex_bytes(h: usize) -> ([u8; 3], usize) {
    let letter = b'a' + (GEO.q[h] + 6) as u8;
    let number = (GEO.r[h] + 7) as u8;
    if number >= 10 {
        ([letter, b'1', b'0' + number % 10], 3)
    } else {
        ([letter, b'0' + number, 0], 2)
    }
}

/// The text of level `level` (below 100) in its first `len` bytes.
const fn level_bytes(level: usize) -> ([u8; 2], usize) {
    if level >= 10 {
        ([b'0' + (level / 10) as u8, b'0' + (level % 10) as u8], 2)
    } else {
        ([b'0' + level as u8, 0], 1)
    }
}

/// The rank of each of `texts` (its first `len` bytes) among them all, each followed by
/// `end` (see [`comes_before`]).
const fn text_ranks<const N: usize, const W: usize>(
    texts: &[([u8; W], usize); N],
    end: u8,
) -> [u8; N] {
    let mut rank = [0u8; N];
    let mut i = 0;
    while i < N {
        let (a, a_len) = texts[i];
        let mut other = 0;
        while other < N {
            let (b, b_len) = texts[other];
            if comes_before(b.split_at(b_len).0, a.split_at(a_len).0, end) {
                rank[i] += 1;
            }
            other += 1;
        }
        i += 1;
    }
    rank
}

/// A move's text written as bytes from the tables of texts, without the checks of a
/// `String` per character: at most 24 bytes (`m13/89-m13xm13/89=m13/89`).
struct TextBytes {
    bytes: [u8; 32],
    len: usize,
}

impl TextBytes {
    fn new() -> Self {
        TextBytes {
            bytes: [0; 32],
            len: 0,
        }
    }

    /// Appends the first `len` bytes of `text` (all `N` are copied, the rest overwritten
    /// later; a text never comes near the end, where it would be cut short).
    #[inline(always)]
    fn put<const N: usize>(&mut self, (text, len): ([u8; N], usize)) {
        let at = self.len.min(32 - N);
        self.bytes[at..at + N].copy_from_slice(&text);
        self.len = at + len;
    }

    /// Appends `<hex>/<level>`.
    #[inline(always)]
    fn place(&mut self, h: usize, level: usize) {
        self.put(HEX_TEXTS[h]);
        self.put(([b'/'], 1));
        self.put(LEVEL_TEXTS[level]);
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or_default()
    }
}

/// Per hex, its text ([`hex_bytes`]).
const HEX_TEXTS: [([u8; 3], usize); HEXES] = {
    let mut texts = [([0; 3], 0); HEXES];
    let mut h = 0;
    while h < HEXES {
        texts[h] = hex_bytes(h);
        h += 1;
    }
    texts
};

/// Per level, its text ([`level_bytes`]).
const LEVEL_TEXTS: [([u8; 2], usize); MAX_PIECES] = {
    let mut texts = [([0; 2], 0); MAX_PIECES];
    let mut level = 0;
    while level < MAX_PIECES {
        texts[level] = level_bytes(level);
        level += 1;
    }
    texts
};

/// Per hex, the rank of its text among the hexes' texts. A hex's text is followed by '/'
/// or '-', by 'x' or by the end of the move, all below the digits but 'x': the shorter of
/// two texts, one beginning the other, comes first, except before 'x'; the two differ that
/// way only for hexes at least 9 rows apart, never both reached by one piece.
const HEX_ORDER: [u8; HEXES] = text_ranks(&HEX_TEXTS, b'/');

/// Per level, the rank of its text among the levels' texts when followed by `end`: '-',
/// '/' or the end of the move (below the digits) put the shorter text first, '=' (above
/// them) last.
const fn level_order(end: u8) -> [u8; MAX_PIECES] {
    text_ranks(&LEVEL_TEXTS, end)
}

/// The rank of the text of the hex `size + 1` away from `h` in direction `d` (255 off the
/// board).
const fn destination_rank(h: usize, d: u8, size: usize) -> u8 {
    match LINE[h][d as usize][size] {
        OFF_BOARD => 255,
        to => HEX_ORDER[to as usize],
    }
}

/// `DIRECTIONS_BY_TEXT[h][size - 1]`: the six directions in the order of the texts of the
/// hexes `size` away from `h` in them (those off the board last).
const DIRECTIONS_BY_TEXT: [[[u8; 6]; 3]; HEXES] = {
    let mut table = [[[0u8; 6]; 3]; HEXES];
    let mut h = 0;
    while h < HEXES {
        let mut size = 0;
        while size < 3 {
            let mut order = [0u8, 1, 2, 3, 4, 5];
            // Insertion sort: `sort` is not a const fn.
            let mut i = 1;
            while i < 6 {
                let mut j = i;
                while j > 0 && destination_rank(h, order[j - 1], size) > destination_rank(h, order[j], size) {
                    (order[j - 1], order[j]) = (order[j], order[j - 1]);
                    j -= 1;
                }
                i += 1;
            }
            table[h][size] = order;
            size += 1;
        }
        h += 1;
    }
    table
};

/// `TEXT_RAYS[h][size - 1][i]`: the `i`-th direction of [`DIRECTIONS_BY_TEXT`] from `h`
/// for a piece of `size`, as the three hexes along it ([`LINE`]) and the direction:
/// `[h1, h2, h3, d]`. The keyed scan tests the directions in this order, so a piece's open
/// directions come out as bits in the text order of their destinations.
const TEXT_RAYS: [[[[u8; 4]; 6]; 3]; HEXES] = {
    let mut table = [[[[0u8; 4]; 6]; 3]; HEXES];
    let mut h = 0;
    while h < HEXES {
        let mut size = 0;
        while size < 3 {
            let mut i = 0;
            while i < 6 {
                let d = DIRECTIONS_BY_TEXT[h][size][i];
                let [h1, h2, h3] = LINE[h][d as usize];
                table[h][size][i] = [h1, h2, h3, d];
                i += 1;
            }
            size += 1;
        }
        h += 1;
    }
    table
};

/// `TEXT_RAY_RANKS[h][size - 1][i]`: the rank of the text of the destination of
/// `TEXT_RAYS[h][size - 1][i]` (255 off the board).
const TEXT_RAY_RANKS: [[[u8; 6]; 3]; HEXES] = {
    let mut table = [[[0u8; 6]; 3]; HEXES];
    let mut h = 0;
    while h < HEXES {
        let mut size = 0;
        while size < 3 {
            let mut i = 0;
            while i < 6 {
                table[h][size][i] = destination_rank(h, DIRECTIONS_BY_TEXT[h][size][i], size);
                i += 1;
            }
            size += 1;
        }
        h += 1;
    }
    table
};

/// `STEP_DIRECTION[(dq + 3) * 7 + dr + 3]`: the direction of a movement of 1 to 3 hexes by
/// `(dq, dr)` (NONE for none).
const STEP_DIRECTION: [u8; 49] = {
    let mut table = [NONE; 49];
    let mut d = 0;
    while d < 6 {
        let mut distance = 1;
        while distance <= 3 {
            let (dq, dr) = (DIRS[d].0 * distance, DIRS[d].1 * distance);
            table[((dq + 3) * 7 + dr + 3) as usize] = d as u8;
            distance += 1;
        }
        d += 1;
    }
    table
};

/// Levels followed by '-' or by the end of the move.
const LEVEL_ORDER: [u8; MAX_PIECES] = level_order(b'-');
/// Levels followed by '=' (X's in a whole-turn exchange).
const LEVEL_ORDER_BEFORE_EQUALS: [u8; MAX_PIECES] = level_order(b'=');

/// Splits a move text into its movement `((from, level), to)` and its exchange `(X, G)`,
/// either of which may be absent; `None` when it is not in the notation.
#[allow(clippy::type_complexity)]
fn split_move(text: &str) -> Option<(Option<(Place, usize)>, Option<(Place, Place)>)> {
    let (movement_text, exchange_text) = match text.split_once('x') {
        Some((m, e)) => (m, Some(e)),
        None => (text, None),
    };
    let movement = if movement_text.is_empty() {
        None
    } else {
        let (from, to) = movement_text.split_once('-')?;
        Some((parse_place(from)?, parse_hex(to)?))
    };
    let exchange = match exchange_text {
        None => None,
        Some(e) => {
            let (x, g) = e.split_once('=')?;
            Some((parse_place(x)?, parse_place(g)?))
        }
    };
    if movement.is_none() && exchange.is_none() {
        return None;
    }
    Some((movement, exchange))
}


impl<const P: usize> Board<P> {
    fn stack_text(&self, h: usize) -> String {
        self.stack_pieces(h)
            .map(|(c, s)| format!("{c}{}", SIZE_LETTERS[s as usize - 1]))
            .collect()
    }

    fn explain_illegal(&self, text: &str) -> String {
        let (movement, exchange) = match split_move(text) {
            Some(parts) => parts,
            None => {
                return format!(
                    "{text} is not an E move: expected '<hex>/<level>-<hex>' (e.g. 'd5/0-e5'), optionally \
                     followed by an exchange 'x<hex>/<level>=<hex>/<level>', a lone exchange, or 'pass'", text = crate::notation::Quoted(text)
                )
            }
        };
        let me = Self::COLOURS[self.player as usize];
        let Some(((from, level), to)) = movement else {
            return format!(
                "illegal move {text}: not a guard exchange the player to move can make", text = crate::notation::Quoted(text)
            );
        };
        let place = format!("{}/{level}", hex_name(from));
        let Some(id) = self.piece_at(from, level) else {
            return format!("illegal move {text}: there is no piece at {place}", text = crate::notation::Quoted(text));
        };
        let colour = Self::colour(id);
        if colour != me {
            return format!(
                "illegal move {text}: the piece at {place} has colour {colour}, not the mover's {me}", text = crate::notation::Quoted(text)
            );
        }
        if !self.is_free(id) {
            return format!(
                "illegal move {text}: the piece at {place} is trapped (a piece above it is at least as large)", text = crate::notation::Quoted(text)
            );
        }
        let size = size_of(id);
        let in_line = (0..6).any(|d| {
            let mut h = from as u8;
            for _ in 0..size {
                if h != OFF {
                    h = NEIGHBOUR[h as usize][d];
                }
            }
            h as usize == to
        });
        if !in_line {
            return format!(
                "illegal move {text}: a {} piece moves exactly {size} hex{} in a straight line",
                SIZE_NAMES[size as usize - 1],
                if size > 1 { "es" } else { "" }, text = crate::notation::Quoted(text)
            );
        }
        let (dirs, _) = self.directions(id, from, size);
        let reached =
            (0..6).any(|d| dirs >> d & 1 != 0 && LINE[from][d][size as usize - 1] as usize == to);
        if !reached {
            return format!(
                "illegal move {text}: no split of the path into steps and jumps touches down only on \
                 landable hexes (empty or topped by another colour, no trap in a home territory, within the stack limit)", text = crate::notation::Quoted(text)
            );
        }
        if exchange.is_none() {
            return format!("illegal move {text}: it is not legal here", text = crate::notation::Quoted(text));
        }
        format!("illegal move {text}: that guard exchange cannot end this move", text = crate::notation::Quoted(text))
    }

    fn text(&self) -> String {
        let mut out = format!("{P} {} {}", self.player, self.ply);
        for h in 0..HEXES {
            if self.top[h] != NONE {
                let _ = write!(out, " {}={}", hex_name(h), self.stack_text(h));
            }
        }
        out
    }

    fn board_string(&self) -> String {
        let mut out = String::new();
        // Each row starts with its number and the letter of its first hex and ends with the
        // letter of its last one: letters grow by one per hex along a row.
        for r in -6i8..=6 {
            let (first, last) = ((-6).max(-6 - r), 6.min(6 - r));
            let letter = |q: i8| (b'a' + (q + 6) as u8) as char;
            let _ = write!(out, "{:>2} {} ", r + 7, letter(first));
            out.push_str(&" ".repeat(2 * r.unsigned_abs() as usize));
            let mut cells = Vec::new();
            for q in -6i8..=6 {
                if (q + r).abs() > 6 {
                    continue;
                }
                let h = GEO.grid[((q + 6) as usize) * 13 + (r + 6) as usize] as usize;
                let cell = match self.stack_pieces(h).last() {
                    None if TERRITORY[h] == NONE => " . ".to_string(),
                    None => " - ".to_string(),
                    Some((c, s)) => format!(
                        "{c}{}{}",
                        SIZE_LETTERS[s as usize - 1],
                        if self.height(h) > 1 { '+' } else { ' ' }
                    ),
                };
                cells.push(cell);
            }
            out.push_str(&cells.join(" "));
            let _ = writeln!(out, " {}", letter(last));
        }
        let tall: Vec<String> = (0..HEXES)
            .filter(|&h| self.height(h) > 1)
            .map(|h| format!("{}={}", hex_name(h), self.stack_text(h)))
            .collect();
        if !tall.is_empty() {
            let _ = writeln!(out, "stacks (bottom to top): {}", tall.join(" "));
        }
        let status = match self.outcome {
            Outcome::Ongoing => format!(
                "player {} (colour {}) to move",
                self.player,
                Self::COLOURS[self.player as usize]
            ),
            Outcome::Draw => "draw".to_string(),
            Outcome::Win(p) => format!("player {p} (colour {}) wins", Self::COLOURS[p as usize]),
        };
        let _ = write!(out, "{P} players, {status}, ply {}", self.ply);
        out
    }

    /// See [`MartianChineseCheckers::move_text_key`].
    #[inline]
    fn move_text_key(&self, mv: MartianChineseCheckersMove) -> Option<usize> {
        if mv.piece == NONE || mv.x != NONE {
            return None;
        }
        let id = mv.piece as usize;
        let (from, level) = (self.hex(id), self.level(id));
        if level >= KEYED_LEVELS {
            return None;
        }
        let size = size_of(id) as usize;
        let to = mv.to as usize;
        let step = (i32::from(GEO.q[to]) - i32::from(GEO.q[from]) + 3) * 7
            + (i32::from(GEO.r[to]) - i32::from(GEO.r[from]) + 3);
        let d = match STEP_DIRECTION.get(usize::try_from(step).ok()?) {
            Some(&d) if d != NONE => d as usize,
            _ => return None,
        };
        Some(((from * KEYED_LEVELS + level) * 3 + size - 1) * 6 + d)
    }

    /// The places of an exchange's X and G as they stand just before the swap, that is
    /// after the movement if there is one (`mv` has an exchange).
    fn exchange_places(&self, mv: MartianChineseCheckersMove) -> (Place, Place) {
        let (x, g) = (mv.x as usize, mv.g as usize);
        if mv.piece == NONE {
            return ((self.hex(x), self.level(x)), (self.hex(g), self.level(g)));
        }
        let (id, to) = (mv.piece as usize, mv.to as usize);
        let (base, new_base) = (self.level(id), self.height(to));
        // G rides along when it stands above the moved piece in the stack that moves.
        let rides = self.hex(g) == self.hex(id) && self.level(g) > base;
        let g_place = if rides {
            (to, self.level(g) - base + new_base)
        } else {
            (self.hex(g), self.level(g))
        };
        ((to, new_base), g_place)
    }

    fn write_move_text(&self, mv: MartianChineseCheckersMove, out: &mut String) {
        if mv.is_pass() {
            out.push_str("pass");
            return;
        }
        let mut text = TextBytes::new();
        if mv.piece != NONE {
            let id = mv.piece as usize;
            text.place(self.hex(id), self.level(id));
            text.put(([b'-'], 1));
            text.put(HEX_TEXTS[mv.to as usize]);
        }
        if mv.x != NONE {
            let (x_place, g_place) = self.exchange_places(mv);
            text.put(([b'x'], 1));
            text.place(x_place.0, x_place.1);
            text.put(([b'='], 1));
            text.place(g_place.0, g_place.1);
        }
        out.push_str(text.as_str());
    }

    /// See [`MartianChineseCheckers::scan_moves_keyed`]: the moves of [`Board::scan_moves`],
    /// each piece's movements in the text order of its place and, a piece's, of their
    /// destinations; after a piece's movements their exchanges, and the whole-turn exchanges
    /// last, as `scan_moves` orders them. With each move its [`Board::move_order_key`] and its
    /// [`Board::move_text_key`]: a movement's are made of the piece's place, size and
    /// direction, which the scan has at hand (the exchanges ask for theirs).
    fn scan_moves_keyed<B>(
        &self,
        visit: &mut impl FnMut(MartianChineseCheckersMove, u64, Option<usize>) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        if self.outcome != Outcome::Ongoing {
            return ControlFlow::Continue(());
        }
        let me = self.player as usize;
        // The free pieces of the mover in the text order of their places: by the rank of
        // their hex's text, one bit per rank, when no two share a hex (as is usual).
        let mut by_rank = [0u8; 128];
        let mut ranks = [0u64; 2];
        let mut shared = 0;
        let mut free = self.free[me];
        while free != 0 {
            let slot = free.trailing_zeros() as usize;
            free &= free - 1;
            let rank = usize::from(HEX_ORDER[self.hex(me * SLOTS + slot)]) & 127;
            let (word, bit) = (rank >> 6, 1 << (rank & 63));
            shared |= ranks[word] & bit;
            ranks[word] |= bit;
            by_rank[rank] = slot as u8;
        }
        let mut any = false;
        if shared == 0 {
            for (word, mut bits) in ranks.into_iter().enumerate() {
                while bits != 0 {
                    let rank = word * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    any |= self.scan_piece_keyed(me * SLOTS + usize::from(by_rank[rank]), visit)?;
                }
            }
        } else {
            // Two on one hex: sorted as (hex rank, level rank, slot).
            let mut pieces = [0u32; SLOTS];
            let mut count = 0;
            let mut free = self.free[me];
            while free != 0 {
                let slot = free.trailing_zeros() as usize;
                free &= free - 1;
                let id = me * SLOTS + slot;
                let place = u32::from(HEX_ORDER[self.hex(id)]) << 8
                    | u32::from(LEVEL_ORDER[self.level(id)]);
                let entry = place << 8 | slot as u32;
                let mut i = count;
                while i > 0 && pieces[i - 1] > entry {
                    pieces[i] = pieces[i - 1];
                    i -= 1;
                }
                pieces[i] = entry;
                count += 1;
            }
            for &entry in &pieces[..count] {
                any |= self.scan_piece_keyed(me * SLOTS + (entry & 0xFF) as usize, visit)?;
            }
        }
        if !self.scan_whole_turn_exchanges(&mut |mv| visit(mv, self.move_order_key(mv), None))?
            && !any
        {
            let pass = MartianChineseCheckersMove::PASS;
            visit(pass, self.move_order_key(pass), None)?;
        }
        ControlFlow::Continue(())
    }

    /// The movements of the mover's free piece `id` for [`Board::scan_moves_keyed`], in the
    /// text order of their destinations, then their exchanges; continues with whether there
    /// was a movement.
    #[inline(always)]
    fn scan_piece_keyed<B>(
        &self,
        id: usize,
        visit: &mut impl FnMut(MartianChineseCheckersMove, u64, Option<usize>) -> ControlFlow<B>,
    ) -> ControlFlow<B, bool> {
        let size = size_of(id);
        let (from, level) = (self.hex(id), self.level(id));
        let (mut open, onto) = self.directions_by_text(id, from, size);
        let rays = &TEXT_RAYS[from][size as usize - 1];
        let ranks = &TEXT_RAY_RANKS[from][size as usize - 1];
        // The order key of this piece's movements but for the destination, and their
        // text key but for the direction (as in `move_order_key` and `move_text_key`).
        let place_order = u64::from(HEX_ORDER[from]) << 29 | u64::from(LEVEL_ORDER[level]) << 22;
        let place_text = (level < KEYED_LEVELS)
            .then(|| ((from * KEYED_LEVELS + level) * 3 + size as usize - 1) * 6);
        let any = open != 0;
        // The destination's place in a ray (size is 1 to 3).
        let step = (size as usize - 1) & 3;
        while open != 0 {
            let i = open.trailing_zeros() as usize;
            open &= open - 1;
            let ray = rays[i];
            let (to, d) = (usize::from(ray[step]), ray[3]);
            let mv = MartianChineseCheckersMove::movement(id, to);
            let order = place_order | u64::from(ranks[i]) << 15;
            visit(mv, order, place_text.map(|key| key + d as usize))?;
        }
        // The exchanges that may end the movements onto a stack, after them all (a few
        // places out of order, for the caller's sort; rare, so no test per movement).
        let mut onto = onto;
        while onto != 0 {
            let i = onto.trailing_zeros() as usize;
            onto &= onto - 1;
            let to = usize::from(rays[i][step]);
            if self.traps_another_on(to, size) {
                if let Some(partners) = self.partners_after(id, to) {
                    let mv = MartianChineseCheckersMove::movement(id, to);
                    partners.scan(|g| {
                        let exchange = mv.with_exchange(id, g);
                        visit(exchange, self.move_order_key(exchange), None)
                    })?;
                }
            }
        }
        ControlFlow::Continue(any)
    }

    /// [`Board::directions`] of the mover's free piece `id`, of `size` on `from`, with bit
    /// `i` for the direction `TEXT_RAYS[from][size - 1][i]`. Without a stack limit, by bit
    /// arithmetic rather than branches: from Python, one position comes after another that
    /// has little in common with it, and branches on the hexes are mispredicted.
    #[inline(always)]
    fn directions_by_text(&self, id: usize, from: usize, size: u8) -> (u8, u8) {
        let rays = &TEXT_RAYS[from][size as usize - 1];
        if (self.limit as usize) < MAX_PIECES {
            let (dirs, onto) = self.directions(id, from, size);
            let (mut open, mut open_onto) = (0, 0);
            for (i, &[_, _, _, d]) in rays.iter().enumerate() {
                open |= (dirs >> d & 1) << i;
                open_onto |= (onto >> d & 1) << i;
            }
            return (open, open_onto);
        }
        // One byte per direction (lane `i` for the ray `i`): the cells `k` hexes along.
        self.open_lanes(size, |i, k| rays[i][k])
    }

    /// The movements of the mover's free pieces, as `from * 18 + (size - 1) * 6 + d` (the
    /// movement action less its base), in `out`; returns how many. By piece in id order,
    /// each piece's in the text order of its directions, tested as
    /// [`Board::directions_by_text`] does: for the legal-action masks of the batched
    /// environment, which like `legal_moves()` meet one unrelated position after another.
    /// Written without a branch on the directions: all six of a piece are stored and the
    /// count moves past the open ones (a loop over the open directions mispredicts its end
    /// at almost every piece).
    #[inline(always)]
    pub(super) fn movements(&self, out: &mut [u16; 128]) -> usize {
        let me = self.player as usize;
        let mut n = 0;
        let mut free = self.free[me];
        while free != 0 {
            let id = me * SLOTS + free.trailing_zeros() as usize;
            free &= free - 1;
            let (size, from) = (size_of(id), self.hex(id));
            let (open, _) = self.directions_by_text(id, from, size);
            let base = from * 18 + (size as usize - 1) * 6;
            for (i, ray) in TEXT_RAYS[from][size as usize - 1].iter().enumerate() {
                // At most 15 pieces of 6 directions: `n` stays below 90.
                out[n & 127] = (base + usize::from(ray[3])) as u16;
                n += usize::from(open >> i & 1);
            }
        }
        n
    }

    /// See [`MartianChineseCheckers::move_order_key`]: the ranks of the parts of the text,
    /// most significant first. A movement `<hex>/<level>-<hex>` is followed by its
    /// exchanges (`x`, then X's place, the same for every exchange of one movement, then
    /// G's); whole-turn exchanges (`x...`) come after every movement; `pass` is alone.
    #[inline]
    fn move_order_key(&self, mv: MartianChineseCheckersMove) -> u64 {
        let hex = |h: usize| u64::from(HEX_ORDER[h]);
        let level = |l: usize| u64::from(LEVEL_ORDER[l]);
        if mv.is_pass() {
            return 0;
        }
        if mv.piece != NONE {
            let id = mv.piece as usize;
            let movement =
                hex(self.hex(id)) << 29 | level(self.level(id)) << 22 | hex(mv.to as usize) << 15;
            if mv.x == NONE {
                return movement;
            }
            let (_, (g_hex, g_level)) = self.exchange_places(mv);
            return movement | 1 << 14 | hex(g_hex) << 7 | level(g_level);
        }
        let ((x_hex, x_level), (g_hex, g_level)) = self.exchange_places(mv);
        1 << 36
            | hex(x_hex) << 29
            | u64::from(LEVEL_ORDER_BEFORE_EQUALS[x_level]) << 22
            | hex(g_hex) << 15
            | level(g_level) << 8
    }
}

impl Notation for MartianChineseCheckers {
    fn from_text(text: &str, params: &MartianChineseCheckersParams) -> Result<Self, Error> {
        let fields: Vec<&str> = text.split(' ').collect();
        if fields.len() < 4 {
            return Err(bad_position!(
                "an E position is '<players> <player to move> <ply> <hex>=<stack> ...' separated by \
                 single spaces, got {text}", text = crate::notation::Quoted(text)
            ));
        }
        let n = parse_count(fields[0]).filter(|n| (2..=6).contains(n));
        let Some(n) = n else {
            return Err(bad_position!(
                "the number of players must be 2 to 6, got {}",
                crate::notation::Quoted(fields[0])
            ));
        };
        if n != u32::from(params.players) {
            return Err(text_disagrees(
                "players",
                ParamValue::Int(n.into()),
                ParamValue::Int(params.players.into()),
            ));
        }
        let Some(player) = parse_count(fields[1]).filter(|&p| p < n) else {
            return Err(bad_position!(
                "the player to move must be a number from 0 to {}, got {}",
                n - 1,
                crate::notation::Quoted(fields[1])
            ));
        };
        let Some(ply) = parse_count(fields[2]) else {
            return Err(bad_position!(
                "the ply count must be a number, got {}",
                crate::notation::Quoted(fields[2])
            ));
        };
        let seats = SEATS[n as usize];
        let mut stacks = vec![Vec::new(); HEXES];
        let mut seen = [false; HEXES];
        let mut counts = [[0usize; 3]; 6];
        for field in &fields[3..] {
            let Some((name, stack_text)) = field.split_once('=') else {
                return Err(bad_position!("expected '<hex>=<stack>', got {field}", field = crate::notation::Quoted(field)));
            };
            let Some(h) = parse_hex(name) else {
                return Err(bad_position!(
                    "{name} is not a hex of the board (a1..m13, within the hexagon)", name = crate::notation::Quoted(name)
                ));
            };
            if seen[h] {
                return Err(bad_position!("hex {name} is listed twice"));
            }
            seen[h] = true;
            let bytes = stack_text.as_bytes();
            if bytes.is_empty() || bytes.len() % 2 != 0 || !stack_text.is_ascii() {
                return Err(bad_position!(
                    "the stack on {name} must be pieces like '0s3l' (colour digit, size s/m/l), got {stack_text}", stack_text = crate::notation::Quoted(stack_text)
                ));
            }
            for pair in bytes.chunks(2) {
                let size = match pair[1] {
                    b's' => 1,
                    b'm' => 2,
                    b'l' => 3,
                    _ => 0,
                };
                if !(b'0'..=b'5').contains(&pair[0]) || size == 0 {
                    return Err(bad_position!(
                        "bad piece '{}' on {name}: a piece is a colour digit 0-5 and a size s/m/l",
                        String::from_utf8_lossy(pair)
                    ));
                }
                let colour = pair[0] - b'0';
                if !seats.contains(&colour) {
                    let list: Vec<String> = seats.iter().map(u8::to_string).collect();
                    return Err(bad_position!(
                        "a piece of colour {colour} on {name}, but with {n} players the colours are {}",
                        list.join(", ")
                    ));
                }
                counts[colour as usize][size as usize - 1] += 1;
                stacks[h].push((colour, size));
            }
            if let Some(limit) = params.stack_limit {
                if stacks[h].len() as u64 > u64::from(limit) {
                    return Err(bad_position!(
                        "the stack on {name} has {} pieces, more than the stack_limit {limit}",
                        stacks[h].len()
                    ));
                }
            }
        }
        for &colour in seats {
            for size in 0..3 {
                let count = counts[colour as usize][size];
                if count != PER_SIZE {
                    return Err(bad_position!(
                        "colour {colour} has {count} {} pieces; every seated colour has exactly \
                         {PER_SIZE} small, {PER_SIZE} medium and {PER_SIZE} large",
                        SIZE_NAMES[size]
                    ));
                }
            }
        }
        // Judged as read: the goal check from the player before the one to move.
        let first = (player as usize + n as usize - 1) % n as usize;
        Ok(Self::build(&stacks, player as u8, ply, params, first))
    }

    /// The number of players, the text's first field (when it is one: 2 to 6).
    fn text_params(text: &str) -> Vec<(&'static str, ParamValue)> {
        let players = text.split(' ').next().and_then(parse_count);
        match players {
            Some(n @ 2..=6) => vec![("players", ParamValue::Int(n.into()))],
            _ => Vec::new(),
        }
    }

    fn text(&self) -> String {
        on_board!(&self.0, b => b.text())
    }

    fn board_string(&self) -> String {
        on_board!(&self.0, b => b.board_string())
    }

    fn write_move_text(&self, mv: MartianChineseCheckersMove, out: &mut String) {
        on_board!(&self.0, b => b.write_move_text(mv, out));
    }

    const MOVE_TEXT_KEYS: usize = HEXES * KEYED_LEVELS * 3 * 6;

    /// Movements without an exchange from the lowest [`KEYED_LEVELS`] levels: the text
    /// `<hex>/<level>-<hex>` is fixed by the piece's hex and level, its size (the distance)
    /// and the direction.
    #[inline]
    fn move_text_key(&self, mv: MartianChineseCheckersMove) -> Option<usize> {
        on_board!(&self.0, b => b.move_text_key(mv))
    }

    /// Movements piece by piece in text order, so only exchanges may be out of it; every
    /// move with its order key, one dispatch on the board's size for the whole scan. Inlined
    /// into its caller (the binding's `legal_moves()`), so that the visitor's state (the
    /// room it writes into, the count) stays in registers.
    #[inline(always)]
    fn scan_moves_keyed<B>(
        &self,
        visit: &mut impl FnMut(MartianChineseCheckersMove, Option<u64>, Option<usize>) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        on_board!(&self.0, b => b.scan_moves_keyed(&mut |mv, order, text| visit(mv, Some(order), text)))
    }

    /// Every move has one (below 2^37).
    #[inline]
    fn move_order_key(&self, mv: MartianChineseCheckersMove) -> Option<u64> {
        Some(on_board!(&self.0, b => b.move_order_key(mv)))
    }

    fn parse_move(&self, text: &str) -> Result<MartianChineseCheckersMove, Error> {
        if self.is_terminal() {
            return Err(crate::notation::game_over(text));
        }
        let mut buffer = String::with_capacity(32);
        let found = self.find_move(|mv| {
            buffer.clear();
            self.write_move_text(mv, &mut buffer);
            buffer == text
        });
        if let Some(mv) = found {
            return Ok(mv);
        }
        if text == "pass" {
            return Err(Error::IllegalMove(
                "'pass' is only legal when the player to move has no other move".into(),
            ));
        }
        Err(Error::IllegalMove(on_board!(&self.0, b => b.explain_illegal(text))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Over random games of every player count: a key is below `MOVE_TEXT_KEYS`, one key
    /// always names one text and one text one key, and only exchange-free movements from
    /// the lowest levels have one.
    #[test]
    fn move_text_keys_name_texts_one_to_one() {
        let mut text_of: HashMap<usize, String> = HashMap::new();
        let mut key_of: HashMap<String, usize> = HashMap::new();
        for players in 2..=6u8 {
            let params = MartianChineseCheckersParams {
                players,
                stack_limit: None,
                max_plies: 400,
            };
            let mut rng = crate::rng::SplitMix64::new(u64::from(players));
            let mut state = MartianChineseCheckers::start(&params);
            while !state.is_terminal() {
                let mut moves = Vec::new();
                state.generate_moves(&mut |mv| moves.push(mv));
                for &mv in &moves {
                    let text = state.move_text(mv);
                    match state.move_text_key(mv) {
                        Some(key) => {
                            assert!(key < MartianChineseCheckers::MOVE_TEXT_KEYS);
                            assert!(!text.contains('x') && text != "pass", "{text}");
                            assert_eq!(text_of.entry(key).or_insert_with(|| text.clone()), &text);
                            assert_eq!(*key_of.entry(text).or_insert(key), key);
                        }
                        None => assert!(
                            text.contains('x') || text == "pass" || {
                                let level = text.split(['/', '-']).nth(1).unwrap_or("");
                                level.len() > 1
                            },
                            "{text} has no key"
                        ),
                    }
                }
                let pick = rng.below(moves.len() as u64) as usize;
                state.play_unchecked(moves[pick]);
            }
        }
        assert!(text_of.len() > 1000, "only {} keyed texts seen", text_of.len());
    }

    /// Over random games of every player count: sorting the legal moves by their order keys
    /// sorts their texts (strictly: the keys differ), the keyed scan gives the same moves
    /// with the movements in text order and the same keys, and the games reach the parts
    /// the keys rank (exchanges after a movement, whole-turn exchanges, two-digit levels).
    #[test]
    fn move_order_keys_sort_moves_as_their_texts() {
        let (mut exchanges, mut whole_turn, mut tall) = (0, 0, 0);
        for players in 2..=6u8 {
            let params = MartianChineseCheckersParams {
                players,
                stack_limit: None,
                max_plies: 2000,
            };
            let mut rng = crate::rng::SplitMix64::new(100 + u64::from(players));
            let mut state = MartianChineseCheckers::start(&params);
            while !state.is_terminal() {
                let mut moves = Vec::new();
                state.generate_moves(&mut |mv| moves.push(mv));
                let mut keyed: Vec<(u64, String)> = moves
                    .iter()
                    .map(|&mv| {
                        let key = state.move_order_key(mv).expect("every move has a key");
                        assert!(key < 1 << 48, "key {key} too large");
                        (key, state.move_text(mv))
                    })
                    .collect();
                keyed.sort_unstable_by_key(|&(key, _)| key);
                for pair in keyed.windows(2) {
                    assert!(pair[0].1 < pair[1].1, "{} before {}", pair[0].1, pair[1].1);
                }
                // The keyed scan: the same moves, the movements in text order, each with the
                // keys that asking for them move by move gives.
                let mut nearly = Vec::new();
                let _ = state.scan_moves_keyed(&mut |mv, order, text| {
                    assert_eq!(order, state.move_order_key(mv), "{}", state.move_text(mv));
                    assert_eq!(text, state.move_text_key(mv), "{}", state.move_text(mv));
                    nearly.push(state.move_text(mv));
                    ControlFlow::<()>::Continue(())
                });
                let movements: Vec<&String> = nearly.iter().filter(|t| !t.contains('x')).collect();
                assert!(movements.windows(2).all(|pair| pair[0] < pair[1]), "{movements:?}");
                nearly.sort_unstable();
                let texts: Vec<&String> = keyed.iter().map(|(_, text)| text).collect();
                assert_eq!(nearly.iter().collect::<Vec<_>>(), texts);
                for (_, text) in &keyed {
                    exchanges += usize::from(text.contains('x') && !text.starts_with('x'));
                    whole_turn += usize::from(text.starts_with('x'));
                    tall += usize::from(text.split(['/', '-', '=']).any(|part| part.len() == 2
                        && part.bytes().all(|b| b.is_ascii_digit())));
                }
                let pick = rng.below(moves.len() as u64) as usize;
                state.play_unchecked(moves[pick]);
            }
        }
        assert!(exchanges > 100 && whole_turn > 100 && tall > 0, "{exchanges} {whole_turn} {tall}");
    }

    /// Over random games of every player count, with and without a stack limit: the
    /// movements written without a branch on the directions are those of a loop over each
    /// piece's open directions, in its order (the order random actions are drawn in).
    #[test]
    fn movements_come_in_the_order_of_the_directions() {
        for (players, stack_limit) in [(2u8, None), (3, None), (6, None), (2, Some(2u32)), (6, Some(3))] {
            let params = MartianChineseCheckersParams {
                players,
                stack_limit,
                max_plies: 400,
            };
            let mut rng = crate::rng::SplitMix64::new(300 + u64::from(players));
            let mut state = MartianChineseCheckers::start(&params);
            while !state.is_terminal() {
                on_board!(&state.0, b => {
                    let me = b.player as usize;
                    let mut expected = Vec::new();
                    let mut free = b.free[me];
                    while free != 0 {
                        let id = me * SLOTS + free.trailing_zeros() as usize;
                        free &= free - 1;
                        let (size, from) = (size_of(id), b.hex(id));
                        let (mut open, _) = b.directions_by_text(id, from, size);
                        while open != 0 {
                            let d = TEXT_RAYS[from][size as usize - 1][open.trailing_zeros() as usize][3];
                            expected.push((from * 18 + (size as usize - 1) * 6 + usize::from(d)) as u16);
                            open &= open - 1;
                        }
                    }
                    let mut out = [0u16; 128];
                    let n = b.movements(&mut out);
                    assert_eq!(&out[..n], &expected[..]);
                });
                let mut moves = Vec::new();
                state.generate_moves(&mut |mv| moves.push(mv));
                let pick = rng.below(moves.len() as u64) as usize;
                state.play_unchecked(moves[pick]);
            }
        }
    }

    /// With a stack limit (the keyed scan then tests the directions as `directions` does,
    /// not by bit arithmetic), over random games: the keyed scan gives the moves of
    /// `scan_moves`, the movements in text order, with the keys asked for move by move.
    #[test]
    fn keyed_scan_minds_the_stack_limit() {
        let mut limited = 0;
        for (players, limit) in [(2u8, 2u32), (3, 3), (2, 4), (6, 2)] {
            let params = MartianChineseCheckersParams {
                players,
                stack_limit: Some(limit),
                max_plies: 600,
            };
            let mut rng = crate::rng::SplitMix64::new(200 + u64::from(limit));
            let mut state = MartianChineseCheckers::start(&params);
            while !state.is_terminal() {
                let mut moves = Vec::new();
                state.generate_moves(&mut |mv| moves.push(mv));
                let mut keyed = Vec::new();
                let _ = state.scan_moves_keyed(&mut |mv, order, text| {
                    assert_eq!(order, state.move_order_key(mv));
                    assert_eq!(text, state.move_text_key(mv));
                    keyed.push(mv);
                    ControlFlow::<()>::Continue(())
                });
                let texts: Vec<String> = keyed.iter().map(|&mv| state.move_text(mv)).collect();
                let movements: Vec<&String> = texts.iter().filter(|t| !t.contains('x')).collect();
                assert!(movements.windows(2).all(|pair| pair[0] < pair[1]), "{movements:?}");
                let mut all: Vec<String> = moves.iter().map(|&mv| state.move_text(mv)).collect();
                let mut found = texts.clone();
                all.sort_unstable();
                found.sort_unstable();
                assert_eq!(found, all);
                // Count the positions where the limit keeps a movement off a stack.
                let unlimited = MartianChineseCheckersParams {
                    stack_limit: None,
                    ..params
                };
                let free = MartianChineseCheckers::from_text(&state.text(), &unlimited).expect("reads");
                let mut n = 0;
                free.generate_moves(&mut |_| n += 1);
                limited += usize::from(n > moves.len());
                let pick = rng.below(moves.len() as u64) as usize;
                state.play_unchecked(moves[pick]);
            }
        }
        assert!(limited > 10, "the limit kept only {limited} positions from a movement");
    }

    /// The rank tables rank hexes and levels as their texts sort, followed by what follows
    /// them in a move (two-digit levels are too rare in random games to rely on those).
    #[test]
    fn order_tables_rank_texts() {
        let ranked = |n: usize, rank: &dyn Fn(usize) -> u8, text: &dyn Fn(usize) -> String| {
            let mut by_rank: Vec<usize> = (0..n).collect();
            by_rank.sort_by_key(|&i| rank(i));
            let mut by_text = by_rank.clone();
            by_text.sort_by_key(|&i| text(i));
            assert_eq!(by_rank, by_text);
        };
        ranked(HEXES, &|h| HEX_ORDER[h], &|h| format!("{}/", hex_name(h)));
        ranked(HEXES, &|h| HEX_ORDER[h], &|h| hex_name(h));
        ranked(MAX_PIECES, &|l| LEVEL_ORDER[l], &|l| format!("{l}-"));
        ranked(MAX_PIECES, &|l| LEVEL_ORDER[l], &|l| l.to_string());
        ranked(MAX_PIECES, &|l| LEVEL_ORDER_BEFORE_EQUALS[l], &|l| format!("{l}="));
        assert!(LEVEL_ORDER_BEFORE_EQUALS[10] < LEVEL_ORDER_BEFORE_EQUALS[1]);
    }
}
