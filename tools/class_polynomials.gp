\\ Class polynomial table for ECPP (docs/ecpp.md).
\\ Usage: gp -q tools/class_polynomials.gp > crates/primekit/src/primality/certificate/ecpp/class_polys.txt
\\ Writes one line per fundamental discriminant D < 0 (except -3, -4, which need no
\\ polynomial) with class number h <= HMAX, and h <= HJMAX when only j itself is
\\ available (its coefficients are 3 to 72 times longer), and h <= HWMAX for the Weber
\\ invariants f, f^3 (D = 1 mod 8):  D h inv c_0 c_1 ... c_{h-1}
\\ (the monic polynomial x^h + c_{h-1} x^{h-1} + ... + c_0), ordered by (h, |D|).
\\ Invariants (PARI polclass numbering) and the j of a root r:
\\   1: Weber f        (D = 1 mod 8, 3 !| D)  j = (r^24 - 16)^3 / r^24
\\   3: Weber f^3      (D = 1 mod 8, 3 | D)   j = (r^8 - 16)^3 / r^8
\\   5: gamma_2 = j^(1/3)  (3 !| D)           j = r^3
\\   0: j              (the rest)             j = r
\\ Each polynomial is checked: for a prime p = (t^2 + |D| s^2) / 4 a root mod p gives
\\ a j whose curve has p + 1 - t or p + 1 + t points.
default(parisizemax, 4000000000);
HMAX = 25; HJMAX = 10; DMAX = 200000;
\\ Beyond HMAX, up to HWMAX, the Weber discriminants (D = 1 mod 8, whose polynomials
\\ have the smallest coefficients) with |D| < DWMAX: a reserve for the rare N that no
\\ smaller class number serves.
HWMAX = 50; DWMAX = 1200000;
inv_for(D) = if(D % 8 == 1, if(D % 3, 1, 3), if(D % 3, 5, 0));
jof(r, inv) = if(inv == 1, (r^24 - 16)^3 / r^24, if(inv == 3, (r^8 - 16)^3 / r^8, if(inv == 5, r^3, r)));
check(D, P, inv) =
{
  my(t, s, p, rs, j, E, c);
  for(k = 1, 10^5,
    t = random(2^34); s = random(2^12) + 1;
    if((t^2 + abs(D)*s^2) % 4, next);
    p = (t^2 + abs(D)*s^2) / 4;
    if(!isprime(p), next);
    rs = polrootsmod(P, p);
    if(#rs == 0, error("no root for D = ", D));
    j = jof(rs[1], inv);
    if(j == 0 || j == 1728, next);
    c = ellcard(ellinit(ellfromj(j)));
    if(c != p + 1 - t && c != p + 1 + t, error("conversion fails for D = ", D));
    return(1));
  error("no test prime for D = ", D);
}
L = List();
forstep(n = 7, DMAX, 1, D = -n; if(isfundamental(D), my(h = qfbclassno(D)); if((h <= HMAX && h > 1 || (h == 1 && n > 4)) && (inv_for(D) || h <= HJMAX), listput(L, [h, n]))));
forstep(n = 7, DWMAX, 8, D = -n; if(isfundamental(D), my(h = qfbclassno(D)); if(h > HMAX && h <= HWMAX, listput(L, [h, n]))));
L = vecsort(Vec(L));
{
for(i = 1, #L,
  my(h = L[i][1], D = -L[i][2], inv = inv_for(D), P = polclass(D, inv));
  check(D, P, inv);
  my(c = Vec(P));
  my(s = Str(D, " ", h, " ", inv));
  forstep(k = #c, 2, -1, s = Str(s, " ", c[k]));
  print(s));
}
quit;
