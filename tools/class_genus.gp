\\ Genus-field factors of the class polynomials (docs/ecpp.md, "Genus factors").
\\ Usage: gp -q tools/class_genus.gp > crates/primekit/src/primality/certificate/ecpp/class_genus.txt
\\ Reads the class polynomial table (tools/class_polynomials.gp writes it). For a
\\ fundamental D < 0 with μ >= 2 prime discriminants p_1* ... p_μ* (product D), the
\\ class polynomial P of degree h splits over the real genus field
\\ F = Q(sqrt(q_1), ..., sqrt(q_k)), k = μ - 1, into 2^k factors of degree h / 2^k
\\ (the classes of one genus, a coset of the squares of the class group; Cox 1989,
\\ §6; Morain 2007). Here q_i = p_i* when p_i* > 0, else p_i* n* for the first
\\ negative prime discriminant n* (which is left out of the list). One factor is
\\ written, its coefficients in the basis b_S = prod_{i in S} sqrt(q_i) of F over Q
\\ (S a subset of 1..k, bit i-1 of the index S for q_i):
\\   D k q_1 ... q_k d  a_{0,0} ... a_{0,2^k-1}  a_{1,0} ...  a_{d-1,2^k-1}
\\ for the monic factor x^d + c_{d-1} x^{d-1} + ... + c_0, c_j = sum_S a_{j,S} b_S,
\\ a_{j,S} rational ("n" or "n/m"). Any choice of the square roots' signs maps F to
\\ F_N and the factor to the image of one genus's factor, which divides P mod N.
\\ Each line is checked here: the product of the factor's 2^k conjugates is P.
default(parisizemax, 4000000000);
TABLE = "crates/primekit/src/primality/certificate/ecpp/class_polys.txt";
pdiscs(D) =
{
  my(f = factor(abs(D))[, 1], v = List(), odd = 1);
  for(i = 1, #f, my(p = f[i]); if(p == 2, next); my(ps = if(p % 4 == 1, p, -p)); listput(v, ps); odd *= ps);
  if(D / odd != 1, listput(v, D / odd));
  Vec(v);
}
genus_line(D, h, P) =
{
  my(ps = pdiscs(D), neg = 0, qs = List());
  for(i = 1, #ps, if(ps[i] < 0, neg = ps[i]; break));
  for(i = 1, #ps, if(ps[i] == neg, next); listput(qs, if(ps[i] < 0, ps[i] * neg, ps[i])));
  my(k = #qs);
  if(k == 0, return(""));
  qs = Vec(qs);
  my(T = y^2 - qs[1]);
  for(i = 2, k, T = polcompositum(T, y^2 - qs[i])[1]);
  my(nf = nfinit(T), F = nffactor(nf, P)[, 1]);
  if(#F != 2^k, error("D = ", D, ": ", #F, " factors over the genus field, not ", 2^k));
  my(G = F[1], d = poldegree(G));
  if(d * 2^k != h, error("D = ", D, ": a factor of degree ", d));
  my(r = vector(k, i, nfroots(nf, x^2 - qs[i])[1]));
  my(b = vector(2^k, s, my(e = Mod(1, T)); for(i = 1, k, if(bittest(s - 1, i - 1), e *= r[i])); e));
  my(M = matconcat(vector(2^k, s, nfalgtobasis(nf, b[s]))));
  my(A = vector(d, j, matsolve(M, nfalgtobasis(nf, polcoeff(G, j - 1)))));
  \\ Checks: the basis coordinates give G back, and G's conjugates under the 2^k
  \\ automorphisms of F multiply to P.
  for(j = 1, d, if(sum(s = 1, 2^k, A[j][s] * b[s]) != Mod(polcoeff(G, j - 1), T), error("D = ", D, ": coordinates")));
  my(pr = 1, gal = nfgaloisconj(nf));
  if(#gal != 2^k, error("D = ", D, ": ", #gal, " automorphisms"));
  for(g = 1, #gal, pr *= sum(j = 0, d, x^j * Mod(subst(lift(polcoeff(G, j)), y, gal[g]), T)));
  if(lift(pr) != P, error("D = ", D, ": the conjugates do not multiply to P"));
  my(out = Str(D, " ", k));
  for(i = 1, k, out = Str(out, " ", qs[i]));
  out = Str(out, " ", d);
  for(j = 1, d, for(s = 1, 2^k, out = Str(out, " ", A[j][s])));
  out;
}
{
  my(L = readstr(TABLE), n = 0);
  for(i = 1, #L,
    my(w = strsplit(L[i], " "));
    if(#w < 3, next);
    my(D = eval(w[1]), h = eval(w[2]));
    my(P = x^h + sum(j = 0, h - 1, eval(w[4 + j]) * x^j));
    my(line = genus_line(D, h, P));
    if(line != "", print(line); n++);
    if(i % 100 == 0, write("/dev/stderr", "class_genus: ", i, " of ", #L, " polynomials, ", n, " lines")));
}
quit;
