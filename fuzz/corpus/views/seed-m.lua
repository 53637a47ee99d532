--- Shapes and their areas, for the golden tests.
-- @module shapes

local point = require("geometry.point")

local M = {}

--- The area of a circle.
-- @param r the radius
function M.circle_area(r)
  return math.pi * r * r
end

local Shape = {}
Shape.__index = Shape

function Shape.new(name)
  local self = setmetatable({}, Shape)
  self.name = name
  return self
end

function Shape:describe()
  return self.name .. " " .. tostring(self:area())
end

function Shape:area() return 0 end

local function helper(x)
  local function inner(y)
    return y + 1
  end
  return inner(x)
end

M.square = function(side)
  return side * side
end

local handlers = {
  on_open = function(event)
    print("open", event)
  end,
  on_close = function() end,
}

function M.empty() end

return M
