-- Variants of SSB queries that return no rows on small data. Q3.3 and Q3.4
-- pick two cities of one nation on both sides; at SF 0.01 supplier has 20
-- rows and neither city, so the answer is empty whatever the engine does.
-- These keep each query's shape (a disjunction of string predicates on
-- both dimensions, the year range or the single month) over every city of
-- the two UNITED nations, so the check sees groups.
-- Q3.3w
select c_city, s_city, d_year, sum(lo_revenue) as revenue
from customer, lineorder, supplier, date
where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_orderdate = d_datekey
  and (c_city like 'UNITED KI%' or c_city like 'UNITED ST%')
  and (s_city like 'UNITED KI%' or s_city like 'UNITED ST%')
  and d_year >= 1992 and d_year <= 1997
group by c_city, s_city, d_year
order by d_year asc, revenue desc;
-- Q3.4w
select c_city, s_city, d_year, sum(lo_revenue) as revenue
from customer, lineorder, supplier, date
where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_orderdate = d_datekey
  and (c_city like 'UNITED KI%' or c_city like 'UNITED ST%')
  and (s_city like 'UNITED KI%' or s_city like 'UNITED ST%')
  and d_yearmonth = 'Dec1997'
group by c_city, s_city, d_year
order by d_year asc, revenue desc;
