-- Queries whose MySQL and SQLite semantics agree; TestOracle runs each on
-- SQLite and on the CPU executor under every join and group-by strategy.
-- Statements are separated by blank lines; "-- ordered" compares row order.

select a, b, s from t1 where a = 3

select count(*) from t1 where b < 0

select count(*) from t1 where a is null

select count(*) from t1 where a is not null and s is null

select count(*), count(a), count(s), count(d), count(f) from t1

select count(*) from t1 where a between 5 and 9 and b > 100

select count(*) from t1 where a = 1 or b = 7 or s = 'fig'

select count(*) from t1 where not (a = 1 or b > 0)

select count(*) from t1 where a in (1, 2, 3, 17)

select count(*) from t1 where a not in (1, 2, 3)

select count(*) from t1 where a in (1, null)

select count(*) from t1 where a not in (1, null)

select count(*) from t1 where s in ('apple', 'x', 'nope')

select count(*) from t1 where s not in ('apple', 'x')

select count(*) from t1 where s > 'cherry' and s <= 'grape'

select count(*) from t1 where s like 'a%' or s like '%e'

select count(*) from t1 where s like '_i%'

select count(*) from t1 where s = ''

select a + b, a - b, a * b, -a, b % 7 from t1 where a < 4

select case when a < 5 then 'low' when a < 10 then 'mid' else 'high' end, count(*) from t1 group by 1

select coalesce(a, b, -1), count(*) from t1 group by coalesce(a, b, -1)

select a, count(*), sum(b), min(b), max(b) from t1 group by a

select s, count(*), min(a), max(a), sum(a) from t1 group by s

select a, s, count(*) from t1 group by a, s

select a, count(*) from t1 group by a having count(*) > 200

select a, sum(b) from t1 where b > 400 group by a having sum(b) > 1000

select count(distinct a), count(distinct s), count(distinct b) from t1

select a, count(distinct s), sum(distinct b) from t1 group by a

select min(s), max(s) from t1

select a, min(s), max(s) from t1 group by a

select sum(b), min(b), max(b), count(*) from t1 where a = 1000

select a, count(*) from t1 where a = 1000 group by a

select sum(d), min(d), max(d) from t1

select a, sum(d) from t1 group by a

select sum(f) > 0, min(f), max(f) from t1

select g, count(*), sum(v), min(v), max(v) from big group by g

select k, count(*) from big group by k having count(*) > 4

select count(*), sum(v) from big where k < 1000

select count(distinct k) from big

select t1.a, t1.b, t3.v from t1, t3 where t1.a = t3.k and t1.b > 450

select t3.v, count(*), sum(t1.b) from t1, t3 where t1.a = t3.k group by t3.v

select t1.s, t2.c from t1 join t2 on t1.a = t2.a where t1.b > 480

select count(*) from t1 join t2 on t1.a = t2.a

select count(*) from t1 join t2 on t1.a = t2.a and t1.s = t2.s

select count(*) from t1 join t2 on t1.a = t2.a and t1.b > t2.c * 10

select count(*) from t1, t2 where t1.b = t2.c and t1.a < t2.a

select count(*), sum(t2.c) from t1 left join t2 on t1.a = t2.a

select t1.a, t2.c from t1 left join t2 on t1.a = t2.a and t2.c > 40 where t1.b > 490

select count(*) from t1 left join t2 on t1.a = t2.a where t2.a is null

select count(*) from t1 left join t2 on t1.a = t2.a where t2.c > 10

select t3.k, count(t2.a) from t3 left join t2 on t3.k = t2.a group by t3.k

select count(*) from t1 where a in (select a from t2 where c > 25)

select count(*) from t1 where a not in (select a from t2 where c > 25)

select count(*) from t1 where a not in (select a from t2 where a is not null and c > 25)

select count(*) from t1 where exists (select * from t2 where t2.a = t1.a and t2.c > t1.b)

select count(*) from t1 where not exists (select * from t2 where t2.a = t1.a)

select count(*) from t3 where k in (select a from empty)

select count(*) from t3 where k not in (select a from empty)

select count(*) from t1 where b > (select avg(c) from t2)

select count(*) from t1 where b = (select max(c) from t2 where c < 0)

select a, (select count(*) from t3) from t2 where c = 7

select count(*) from t1 a1, t1 a2 where a1.b = a2.b and a1.a = 5

select count(*) from big b1 join big b2 on b1.k = b2.k

select count(*) from t2 x, t2 y where x.c < y.c and x.a = 1

select count(*) from t3 x, t3 y

select x.k, y.k from t3 x, t3 y where x.k + y.k = 7

select count(*) from t1, t2, t3 where t1.a = t2.a and t2.c = t3.k and t3.v = 'fig'

select t3.v, t2.s, count(*) from t1, t2, t3 where t1.a = t2.a and t2.c = t3.k and t1.b > 0 group by t3.v, t2.s

select count(*) from t1 join t3 on t1.a = t3.k join t2 on t2.c = t3.k left join t3 z on z.k = t1.b

select distinct a from t1

select distinct a, s from t1 where b > 300

select count(*) from (select distinct s from t1) x

select a from t2 union select k from t3 where k < 30

select a from t2 union all select k from t3 where k < 30

select a from t2 intersect select k from t3

select a from t2 except select k from t3 where k > 10

select s from t1 where a = 1 union select v from t3

-- ordered
select k, v from t3 order by v, k desc

-- ordered
select a, b from t1 where a = 2 order by b desc, a

-- ordered
select a from t2 order by a

-- ordered
select a from t2 order by a desc

-- ordered
select k from t3 order by k limit 5

-- ordered
select k from t3 order by k desc limit 3 offset 2

-- ordered
select b from t1 order by b limit 10

-- ordered
select a, count(*) as n from t1 group by a order by n desc, a limit 4

select count(*) from (select k from big limit 100) x

select count(*) from (select * from t3 limit 10 offset 95) x

select * from empty

select count(*), sum(a) from empty

select s, count(*) from empty group by s

select count(*) from t1 join empty on t1.a = empty.a

select count(*) from t1 left join empty on t1.a = empty.a

select x.a, x.n from (select a, count(*) as n from t1 group by a) x where x.n > 250

select v, n from (select v, count(*) as n from t3 group by v) q where v > 'd'

select upper(s), lower(s), length(s) from t1 where a = 4

select substring(s, 2, 3), count(*) from t1 group by substring(s, 2, 3)

select abs(b), count(*) from t1 where b between -3 and 3 group by abs(b)

select a from empty order by a

select a from empty order by a limit 3

select distinct a from empty

select a from t2 where a < 3 union select a from empty

select a from empty intersect select a from t2

select a from t2 except select a from empty

select count(*) from empty e1, empty e2

select count(*) from t3 where k > (select max(a) from empty)

select s, count(*) from t1 where a > 100 group by s

select count(*) from t1 where a = 3 and b > 0 and s is not null and d > 0 and f > 50

select count(*), sum(v) from big where k < 100

select count(*) from sorted where id between 70000 and 70010

select count(*), min(id), max(id) from sorted where id >= 130000 and s = 's5'

select count(*) from sorted where s = 's1' and id < 5

-- ordered
select k, g, v from big order by v desc, k limit 7

-- ordered
select k, g from big order by g, k limit 5 offset 3

-- ordered
select s, a from t1 order by s desc, a desc, b limit 4

-- ordered
select f from t1 order by f limit 6

select a, (select count(*) from t3 where t3.k = t1.a) from t1 where b > 490

select k, (select max(c) from t2 where t2.a = t3.k) from t3 where k < 30

with x as (select a, count(*) as n from t1 group by a) select x.a, x.n, t3.v from x join t3 on x.a = t3.k where x.n > 100

select count(*) from t1 where a in (select a from t2 where t2.c = t1.b % 50)

select count(*) from t3 where k in (select a from t2 where c in (select k from t3 where v = 'fig'))

select v, count(*) from t3 where k not in (select c from t2 where c is not null) group by v

select count(*) from (select a from t1 union all select a from t2) u where a > 10

select t3.k, x.cnt from t3 left join (select a, count(*) as cnt from t2 group by a) x on t3.k = x.a where t3.k < 30
