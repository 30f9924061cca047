#include "io/xdmf.hpp"

#include <cstdio>
#include <sstream>

namespace eddy::io {

namespace {

/// A double printed so it reads back to the same value.
std::string exact(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", value);
  return text;
}

}  // namespace

XdmfGrid xdmf_grid_of(const grid::GlobalGrid& g) {
  XdmfGrid grid{g.cells, g.origin, {g.spacing(0), g.spacing(1), g.spacing(2)}, {}};
  for (int a = 0; a < 3; ++a) {
    if (g.stretched(a)) grid.nodes[a] = g.faces[a];
  }
  return grid;
}

std::string xdmf_time_series(const XdmfGrid& grid, const std::vector<XdmfStep>& steps) {
  const auto& n = grid.cells;
  const std::string cell_dims = std::to_string(n[2]) + " " + std::to_string(n[1]) + " " + std::to_string(n[0]);
  const std::string point_dims =
      std::to_string(n[2] + 1) + " " + std::to_string(n[1] + 1) + " " + std::to_string(n[0] + 1);
  const bool rectilinear = !grid.nodes[0].empty() || !grid.nodes[1].empty() || !grid.nodes[2].empty();
  std::ostringstream x;
  x << "<?xml version=\"1.0\" ?>\n"
    << "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
    << "<Xdmf Version=\"2.0\">\n"
    << "  <Domain>\n"
    << "    <Grid Name=\"fields\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  for (const auto& s : steps) {
    x << "      <Grid Name=\"step_" << s.step << "\" GridType=\"Uniform\">\n"
      << "        <Time Value=\"" << exact(s.time) << "\"/>\n";
    if (rectilinear) {
      x << "        <Topology TopologyType=\"3DRectMesh\" Dimensions=\"" << point_dims << "\"/>\n"
        << "        <Geometry GeometryType=\"VXVYVZ\">\n";
      for (int a = 0; a < 3; ++a) {
        x << "          <DataItem Dimensions=\"" << n[a] + 1
          << "\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">";
        for (int m = 0; m <= n[a]; ++m) {
          const double node = grid.nodes[a].empty() ? grid.origin[a] + m * grid.spacing[a] : grid.nodes[a][m];
          x << (m ? " " : "") << exact(node);
        }
        x << "</DataItem>\n";
      }
      x << "        </Geometry>\n";
    } else {
      x << "        <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"" << point_dims << "\"/>\n"
        << "        <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n"
        << "          <DataItem Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">"
        << exact(grid.origin[2]) << " " << exact(grid.origin[1]) << " " << exact(grid.origin[0]) << "</DataItem>\n"
        << "          <DataItem Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">"
        << exact(grid.spacing[2]) << " " << exact(grid.spacing[1]) << " " << exact(grid.spacing[0]) << "</DataItem>\n"
        << "        </Geometry>\n";
    }
    for (const auto& a : s.arrays) {
      const bool vector = a.components == 3;
      x << "        <Attribute Name=\"" << a.name << "\" AttributeType=\"" << (vector ? "Vector" : "Scalar")
        << "\" Center=\"Cell\">\n"
        << "          <DataItem Dimensions=\"" << cell_dims << (vector ? " 3" : "")
        << "\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" << s.file << ":/" << a.name << "</DataItem>\n"
        << "        </Attribute>\n";
    }
    x << "      </Grid>\n";
  }
  x << "    </Grid>\n"
    << "  </Domain>\n"
    << "</Xdmf>\n";
  return x.str();
}

}  // namespace eddy::io
